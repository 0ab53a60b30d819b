/**
 * The test files (`*.test.ts`, relative to `dir`, sorted) whose cases depend on the test depth
 * (.ci/depth-files.mjs says how they are found). `exclude(rel)` leaves a file out of the list.
 */
export function depthFiles(dir: string, exclude?: (rel: string) => boolean): string[];
