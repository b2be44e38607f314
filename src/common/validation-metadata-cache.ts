/**
 * class-validator looks a class's rules up again on every validation, and
 * the lookup walks every decorated class of the process (an `instanceof` per
 * class, for inherited rules): its cost grows with the API, not with the
 * input. The rules are fixed once the modules are loaded, so the answer is
 * kept per (class, options) and forgotten whenever a rule is added.
 * Installed once, by validationPipe() (./validation.ts).
 */
import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
type Metadatas = ReturnType<Lookup>;

const installed = new WeakSet<Storage>();

export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): void {
  if (installed.has(storage)) return;
  installed.add(storage);
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const addMetadata = storage.addValidationMetadata.bind(storage);
  // target -> options key -> the rules; a schema name (a string target) is not cached
  let cache = new WeakMap<object, Map<string, Metadatas>>();
  storage.addValidationMetadata = (metadata) => {
    cache = new WeakMap();
    addMetadata(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (typeof target !== 'function' || schema) return lookup(target, schema, always, strictGroups, groups);
    const key = `${always}|${strictGroups}|${groups?.join('\u0000') ?? ''}`;
    let byOptions = cache.get(target);
    if (!byOptions) cache.set(target, (byOptions = new Map()));
    let found = byOptions.get(key);
    if (!found) byOptions.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
}
