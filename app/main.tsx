// Entry: start the engine worker first, from a small chunk, so the cluster
// boots while React and the workspace load in parallel.
import { installDebugHook } from './debugHook';
import { startEngine, startOptionsFromUrl } from './engineClient';
import './styles.css';

const start = startOptionsFromUrl(window.location.search);
// The epoch is part of the scenario: put it in the URL, so a copied link replays the same run.
if (!new URLSearchParams(window.location.search).has('epoch')) {
  const url = new URL(window.location.href);
  url.searchParams.set('epoch', String(start.epochMs));
  window.history.replaceState(null, '', url);
}
startEngine(start);
installDebugHook();

void import('./render').then((m) => m.render(document.getElementById('root')!));
