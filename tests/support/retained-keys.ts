/**
 * Finds where a running app still keeps something of a finished session in memory: every Map key, Set member or
 * string property equal to one of `wanted`, reachable from `root` through properties, Map entries, Set members and
 * arrays. Closures' captured variables are out of its reach; everything held as an object's field is in it.
 */
export function findRetainedKeys(root: object, wanted: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const seen = new WeakSet<object>();
  const queue: { value: object; path: string }[] = [{ value: root, path: 'root' }];
  const visit = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if (wanted.has(value)) found.push(path);
      return;
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return;
    seen.add(value);
    queue.push({ value, path });
  };
  for (let index = 0; index < queue.length; index += 1) {
    const { value, path } = queue[index]!;
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof WeakMap || value instanceof WeakSet) continue;
    if (value instanceof Map) {
      for (const [key, entry] of value) {
        const name = typeof key === 'string' ? key : '·';
        if (typeof key === 'string' && wanted.has(key)) found.push(`${path} (Map key ${key})`);
        else visit(key, `${path}.<key>`);
        visit(entry, `${path}[${name}]`);
      }
      continue;
    }
    if (value instanceof Set) {
      for (const member of value) {
        if (typeof member === 'string' && wanted.has(member)) found.push(`${path} (Set member ${member})`);
        else visit(member, `${path}.<member>`);
      }
      continue;
    }
    for (const name of ownPropertyNames(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, name);
      // Getters are not called: reading one may compute or change state.
      if (descriptor && 'value' in descriptor) visit(descriptor.value, Array.isArray(value) ? `${path}[${name}]` : `${path}.${name}`);
    }
  }
  return found;
}

function ownPropertyNames(value: object): string[] {
  try {
    return Object.getOwnPropertyNames(value);
  } catch {
    return [];
  }
}
