// CI seeds 301..400 of the safety harness (the range is split over four files so
// vitest runs them in parallel). A failure prints the line that reproduces it.
import { seedSuite } from './seedTests';

seedSuite(301, 400);
