/**
 * The order vitest starts the test files in: the few long files first, longest first, then the
 * rest as vitest orders them. With two workers a file starts when a worker is free, so starting
 * the longest first keeps the two busy to the end. Vitest's own order, without the results of an
 * earlier run (a fresh clone, as CI is), puts the largest files first; the property suites are the
 * smallest files and the longest runs (test/properties*.test.ts call test/property-suite.ts), so
 * they started last and one worker ran on alone: the full tier took 709 s of wall time for
 * 1,153 s of files on CI's two cores (2026-11-29).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The long files, longest first (seconds in the full tier of that run: 227, 226, 216, 195, 57). */
const LONGEST = [
  'test/ai.test.ts',
  'test/properties-small-subsets.test.ts',
  'test/properties-combos-second-half.test.ts',
  'test/properties-combos.test.ts',
  'test/properties.test.ts',
];

/** Where a file stands in {@link LONGEST}, or after all of them. */
function rank(spec: TestSpecification): number {
  const path = spec.moduleId.replaceAll('\\', '/');
  const i = LONGEST.findIndex((f) => path.endsWith(`/${f}`));
  return i < 0 ? LONGEST.length : i;
}

/** {@link LONGEST} first, in its order; the rest in vitest's own order (the sort is stable). */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
