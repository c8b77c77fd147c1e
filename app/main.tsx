// Entry: start the engine worker first, from a small chunk, so the cluster
// boots while React and the workspace load in parallel.
import { installDebugHook } from './debugHook';
import { startEngine, startOptionsFromUrl } from './engineClient';
import './styles.css';

startEngine(startOptionsFromUrl(window.location.search));
installDebugHook();

void import('./render').then((m) => m.render(document.getElementById('root')!));
