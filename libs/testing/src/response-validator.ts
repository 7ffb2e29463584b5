import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';

type Media = { schema?: object };
type Response = { $ref?: string; content?: Record<string, Media> };
type Operation = { operationId?: string; responses: Record<string, Response> };
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, object>; responses?: Record<string, Response> };
}

/**
 * Checks every response the e2e tests receive against the committed API reference (docs/openapi.json): the status
 * must be documented for the operation, and the body must match the schema of that status and content type. So a
 * wrong schema in the reference fails our own tests.
 */
export class ResponseValidator {
  private readonly document: Document;
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly routes: Array<{ template: string; pattern: RegExp; literal: number }>;

  constructor(file = path.resolve(__dirname, '../../../docs/openapi.json')) {
    this.document = JSON.parse(readFileSync(file, 'utf8'));
    this.ajv.addSchema({ components: { schemas: this.document.components?.schemas ?? {} } }, 'doc');
    // literal segments win over parameters (`/applications/key` before `/applications/{id}`)
    this.routes = Object.keys(this.document.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
        literal: template.split('/').filter((s) => s && !s.startsWith('{')).length,
      }))
      .sort((a, b) => b.literal - a.literal);
  }

  /** A list of what is wrong with the response (empty when it matches the document). */
  check(method: string, target: string, status: number, contentType: string | null, body: unknown, text: string): string[] {
    // matched as sent: a parameter may be percent-encoded, even invalidly (the reference's 400)
    const pathname = target.split('?')[0];
    const m = method.toLowerCase();
    const route = this.routes.find((r) => r.pattern.test(pathname) && this.document.paths[r.template][m]);
    if (!route) return [`${method} ${pathname} is not in the API reference`];
    const op = this.document.paths[route.template][m];
    const response = this.resolve(op.responses[String(status)] ?? op.responses['default']);
    const where = `${method} ${route.template} → ${status}`;
    if (!response) return [`${where}: the status is not documented`];
    const content = response.content ?? {};
    const types = Object.keys(content);
    if (!types.length) return text === '' || status === 200 ? [] : [`${where}: a body where the reference documents none`];
    const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    const key = content[mediaType] ? mediaType : types.length === 1 ? types[0] : undefined;
    if (!key) return [`${where}: content type ${mediaType || '(none)'} is not documented (${types.join(', ')})`];
    const schema = content[key].schema;
    if (!schema || !key.includes('json')) return [];
    const validate = this.validator(`${where} ${key}`, schema);
    return validate(body) ? [] : [`${where} ${key}: ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}`];
  }

  private resolve(response: Response | undefined): Response | undefined {
    if (!response?.$ref) return response;
    return this.document.components?.responses?.[response.$ref.replace('#/components/responses/', '')];
  }

  private validator(key: string, schema: object): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/')));
      this.compiled.set(key, validate);
    }
    return validate;
  }
}
