// Property tests (fast-check) draw a fresh seed each local run, to keep finding
// new cases; in CI (CI=true) they use one fixed seed so a run is reproducible and
// a commit's verdict does not depend on the draw. FC_SEED=N picks a seed anywhere
// (a failure prints the seed and path that reproduce it).
import fc from 'fast-check';
import { setReadonlyChecks } from './engine/apimachinery/readonly';

// Objects shared between readers (watch-cache and informer objects) are frozen
// under test, so code that changes one in place throws here (off in production).
setReadonlyChecks(true);

const fromEnv = process.env.FC_SEED;
const seed = fromEnv !== undefined && fromEnv !== '' ? Number(fromEnv) : process.env.CI ? 20_261_202 : undefined;
if (seed !== undefined) {
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(fromEnv)}`);
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}
