import { IsInt, IsString, MetadataStorage, getMetadataStorage, validate } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

class Base {
  @IsString()
  name!: string;
}

class Derived extends Base {
  @IsInt()
  count!: number;
}

describe('cacheValidationMetadata', () => {
  beforeAll(() => cacheValidationMetadata());

  it('keeps the same rules per class, inherited ones included, and validates as before', async () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Derived, '', false, false);
    expect(storage.getTargetValidationMetadatas(Derived, '', false, false)).toBe(first);
    expect(first.map((m) => m.propertyName).sort()).toEqual(['count', 'name']);
    const errors = await validate(Object.assign(new Derived(), { name: 3, count: 'x' }));
    expect(errors.map((e) => e.property).sort()).toEqual(['count', 'name']);
    expect(await validate(Object.assign(new Derived(), { name: 'a', count: 2 }))).toEqual([]);
  });

  it('keeps one answer per set of options (groups)', () => {
    const storage = getMetadataStorage();
    const plain = storage.getTargetValidationMetadatas(Derived, '', false, false);
    const grouped = storage.getTargetValidationMetadatas(Derived, '', false, true, ['g']);
    expect(plain).toHaveLength(2);
    expect(grouped).toEqual([]); // asked for group g only: no rule of Derived is in it
  });

  it('forgets its answers when a rule is added later', async () => {
    class Late {
      value!: unknown;
    }
    const storage = getMetadataStorage();
    expect(storage.getTargetValidationMetadatas(Late, '', false, false)).toEqual([]);
    IsString()(Late.prototype, 'value'); // a decorator applied after the first lookup
    expect(storage.getTargetValidationMetadatas(Late, '', false, false).map((m) => m.propertyName)).toEqual(['value']);
    expect((await validate(new Late())).map((e) => e.property)).toEqual(['value']);
  });

  it('is installed once per storage', () => {
    const storage = new MetadataStorage();
    cacheValidationMetadata(storage);
    const wrapped = storage.getTargetValidationMetadatas;
    cacheValidationMetadata(storage);
    expect(storage.getTargetValidationMetadatas).toBe(wrapped);
  });
});
