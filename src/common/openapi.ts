import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { stringify } from 'yaml';

/** The OpenAPI 3 document of the REST API, built from the controllers' decorators. */
export function openApiDocument(app: INestApplication): Record<string, unknown> {
  const config = new DocumentBuilder()
    .setTitle('Scopa as a service')
    .setDescription(
      'REST API (/v1) for third-party clients. Errors are application/problem+json documents with a stable `code`. ' +
        'Bearer tokens: a session JWT (POST /v1/auth/login) or a personal API token (scopa_pat_...). ' +
        'Rate limits are announced in RateLimit-* headers; a 429 carries Retry-After. The same capabilities are offered over GraphQL at /graphql.',
    )
    .setVersion('1.0.0')
    .addBearerAuth()
    .build();
  return SwaggerModule.createDocument(app, config, { operationIdFactory: (_c, method) => method }) as unknown as Record<string, unknown>;
}

export function openApiYaml(app: INestApplication): string {
  return stringify(openApiDocument(app), { lineWidth: 0, aliasDuplicateObjects: false });
}
