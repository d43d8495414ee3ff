import 'reflect-metadata';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every controller file of the gateway. */
function controllerFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return controllerFiles(path);
    return entry.endsWith('.controller.ts') ? [path] : [];
  });
}

type Constructor = abstract new (...args: never[]) => unknown;

/**
 * The OpenAPI document names each body and query schema after its class, one schema per name: two input classes
 * with the same name would document one route with the other's schema. So every class a route takes is the only
 * class of its name.
 */
describe('OpenAPI schema names', () => {
  it('gives every input class of every route a name of its own', async () => {
    const byName = new Map<string, Set<Constructor>>();
    let routes = 0;
    for (const file of controllerFiles(__dirname)) {
      for (const exported of Object.values((await import(file)) as Record<string, unknown>)) {
        if (typeof exported !== 'function') continue;
        const proto = (exported as { prototype: object }).prototype;
        for (const method of Object.getOwnPropertyNames(proto)) {
          const types = (Reflect.getMetadata('design:paramtypes', proto, method) ?? []) as unknown[];
          if (types.length > 0) routes++;
          for (const type of types) {
            if (typeof type !== 'function' || !/Dto$/.test(type.name)) continue;
            const classes = byName.get(type.name) ?? new Set<Constructor>();
            byName.set(type.name, classes.add(type as Constructor));
          }
        }
      }
    }
    expect(routes).toBeGreaterThan(50);
    expect(byName.has('GroupAddOrEditDto')).toBe(true);
    expect([...byName].filter(([, classes]) => classes.size > 1).map(([name]) => name)).toEqual([]);
  });
});
