/**
 * An OpenAPI 3.1 document generated from the operation table: the contract as the sandbox serves it
 * (`GET /openapi.json`). Schemas are the request side of each zod schema; what JSON Schema cannot say
 * (transforms, custom refinements) is left open rather than guessed.
 */
import { z } from 'zod';
import { operationList } from './operations';
import type { OperationDef } from './operations/define';
import { ProblemDetail } from './problem';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  return rest;
}

function parameters(op: OperationDef): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const name of op.path.match(/\{(\w+)\}/g) ?? []) {
    out.push({ name: name.slice(1, -1), in: 'path', required: true, schema: { type: 'string' } });
  }
  if (op.query) {
    const props = (toSchema(op.query, 'input').properties ?? {}) as Record<string, JsonSchema>;
    for (const [name, schema] of Object.entries(props)) {
      out.push({ name, in: 'query', required: false, schema });
    }
  }
  return out;
}

export function buildOpenApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetail' } } };
  for (const op of operationList) {
    const status = String(op.status ?? 200);
    const entry: JsonSchema = {
      operationId: op.id,
      summary: op.summary,
      ...(op.note ? { description: op.note } : {}),
      'x-permission': op.permission,
      'x-scope': op.scope,
      ...(op.extension ? { 'x-extension': true } : {}),
      ...(op.alternates?.length ? { 'x-alternates': op.alternates } : {}),
      parameters: parameters(op),
      responses: {
        [status]:
          status === '204' || !op.response
            ? { description: 'Success' }
            : { description: 'Success', content: { 'application/json': { schema: toSchema(op.response, 'output') } } },
        ...Object.fromEntries(
          ['401', '403', '404', '422', '429'].map((s) => [s, { description: 'Problem', content: problem }]),
        ),
      },
    };
    if (op.body) {
      entry.requestBody = { required: true, content: { 'application/json': { schema: toSchema(op.body, 'input') } } };
    }
    if (op.multipart) {
      const { field, maxBytes } = op.multipart;
      entry.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: [field],
              properties: { [field]: { type: 'string', format: 'binary' } },
            },
          },
        },
        'x-max-bytes': maxBytes,
      };
      (entry.responses as Record<string, JsonSchema>)['413'] = { description: 'Problem', content: problem };
    }
    if (op.redirect) {
      const responses = entry.responses as Record<string, JsonSchema>;
      delete responses[status];
      responses['302'] = {
        description: 'Redirect to a short-lived signed URL',
        headers: { Location: { schema: { type: 'string', format: 'uri' } } },
      };
    }
    (paths[op.path] ??= {})[op.method.toLowerCase()] = entry;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Agent Platform API v3 (as the console uses it)',
      version: '3.0.0',
      description:
        'Generated from the console contract (src/api/operations). Operations marked x-extension are answered by the sandbox only.',
    },
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Service-user credential (cog_…)' },
      },
      schemas: { ProblemDetail: toSchema(ProblemDetail, 'output') },
    },
    paths,
  };
}
