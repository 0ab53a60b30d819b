/**
 * The second half of the larger expansion subsets' random-simulation properties (the first, and
 * the reason for two files, is in test/properties-combos.test.ts). In the fast tier (test/depth.ts)
 * this half runs all six expansions together.
 */
import { largeSubsetSuites } from './property-suite.js';

largeSubsetSuites(1);
