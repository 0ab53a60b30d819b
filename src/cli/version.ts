/**
 * The package's version, for `meeplekit --version` and the header of `simulate`'s files. The JSON
 * import is inlined by the bundler into dist/cli.js at build time, and read from package.json
 * under tsx (tests, scripts): one source of truth, no file read at run time from the bundle.
 */
import pkg from '../../package.json' with { type: 'json' };

/** meeplekit's version, as package.json states it. */
export const VERSION: string = pkg.version;
