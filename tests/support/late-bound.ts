/**
 * A stand-in for a value a `beforeAll` hook creates, so a test file can write `const t = setUpTestApp()` at the
 * top instead of `let t` plus its own hooks. Reading it before the hook ran is a bug in the test: it throws.
 */
export function lateBound<T extends object>(name: string): { value: T; set(value: T | undefined): void } {
  let current: T | undefined;
  const get = (): T => {
    if (current === undefined) throw new Error(`${name} is used before its beforeAll hook created it`);
    return current;
  };
  const value = new Proxy({} as T, {
    get(_, key) {
      const target = get();
      const found = Reflect.get(target, key);
      return typeof found === "function" ? found.bind(target) : found;
    },
    has: (_, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(get(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
  return {
    value,
    set(next) {
      current = next;
    },
  };
}
