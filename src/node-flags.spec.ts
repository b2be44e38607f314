import { jest } from '@jest/globals';
import { applyEmbeddedHeapSettings, EMBEDDED_NODE_FLAGS, SERVICE_NODE_FLAGS, serviceNodeFlags } from './node-flags';

// A V8 flag set here would hold for every suite this jest worker runs next,
// so the flag setter is a mock.
describe('the heap settings of the embedded default', () => {
  it('leave PostgreSQL mode with the service flags', () => {
    const setFlags = jest.fn<(flags: string) => void>();
    expect(applyEmbeddedHeapSettings({ DATABASE_URL: 'postgresql://x@127.0.0.1/db', PGLITE_HEAP_GROWING_PERCENT: 10 }, setFlags)).toBeNull();
    expect(setFlags).not.toHaveBeenCalled();
    expect(SERVICE_NODE_FLAGS).toContain('--heap-growing-percent=200');
    expect(SERVICE_NODE_FLAGS).toContain('--v8-pool-size=0');
  });

  it('set the heap growing factor of PGLITE_HEAP_GROWING_PERCENT without a DATABASE_URL', () => {
    const setFlags = jest.fn<(flags: string) => void>();
    expect(applyEmbeddedHeapSettings({ DATABASE_URL: undefined, PGLITE_HEAP_GROWING_PERCENT: 10 }, setFlags)).toBe('--heap-growing-percent=10');
    expect(setFlags).toHaveBeenCalledWith('--heap-growing-percent=10');
  });
});

describe('the Node flags a service process starts with', () => {
  it('add the embedded default flags only where DATABASE_URL is unset or blank', () => {
    expect(EMBEDDED_NODE_FLAGS).toContain('--max-semi-space-size=2');
    expect(serviceNodeFlags({})).toEqual([...SERVICE_NODE_FLAGS, ...EMBEDDED_NODE_FLAGS]);
    expect(serviceNodeFlags({ DATABASE_URL: '  ' })).toEqual([...SERVICE_NODE_FLAGS, ...EMBEDDED_NODE_FLAGS]);
    expect(serviceNodeFlags({ DATABASE_URL: 'postgresql://x@127.0.0.1/db' })).toEqual([...SERVICE_NODE_FLAGS]);
  });
});
