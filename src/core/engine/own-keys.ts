/**
 * Whether the host's `Object.prototype` carries an enumerable key (another library's prototype
 * pollution, a careless polyfill). The engine walks plain data with `for...in`, which also visits
 * inherited keys: when this is true, the walks skip every key that is not the object's own. Asked
 * once per walk (about 7 ns), so that the usual case pays no `Object.hasOwn` per key. @internal
 */
export function hostKeys(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}
