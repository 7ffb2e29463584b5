import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;

const BY_FORMAT: Record<string, string> = {
  uuid: '3f6c1b4e-9a2d-4c7e-8b1f-5d0a2e4c6b8a',
  'date-time': '2030-01-31T12:00:00.000Z',
};

/**
 * A sample value for a schema of the document, from the examples written on the contract classes: used as the
 * example of every operation that has no hand-written one. Deterministic (the snapshot must not drift); stops at a
 * small depth so recursive schemas end.
 */
export function exampleOf(schema: object, document: OpenAPIObject, depth = 0): unknown {
  const s = resolve(schema as Schema, document);
  if (s['example'] !== undefined) return s['example'];
  if (s['default'] !== undefined) return s['default'];
  if (depth > 12) return undefined;
  const first = (s['allOf'] ?? s['anyOf'] ?? s['oneOf']) as Schema[] | undefined;
  if (first?.length) return exampleOf(first[0], document, depth + 1);
  if (Array.isArray(s['enum'])) return s['enum'][0];
  switch (s['type']) {
    case 'array': {
      const item = exampleOf((s['items'] as Schema) ?? {}, document, depth + 1);
      return item === undefined ? [] : [item];
    }
    case 'string':
      return BY_FORMAT[s['format'] as string] ?? 'string';
    case 'integer':
    case 'number':
      return typeof s['minimum'] === 'number' ? s['minimum'] : 1;
    case 'boolean':
      return true;
    default: {
      const properties = (s['properties'] ?? {}) as Record<string, Schema>;
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        const value = exampleOf(property, document, depth + 1);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
  }
}

function resolve(schema: Schema, document: OpenAPIObject): Schema {
  let s = schema;
  for (let i = 0; i < 10 && typeof s['$ref'] === 'string'; i++) {
    const name = (s['$ref'] as string).replace('#/components/schemas/', '');
    s = (document.components?.schemas?.[name] ?? {}) as Schema;
  }
  return s;
}
