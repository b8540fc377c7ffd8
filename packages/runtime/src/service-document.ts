import express from 'express';
import pino from 'pino';
import { createJwtVerifier } from '@platform/auth';
import { createDatabase } from '@platform/db';
import { Lifecycle, OpenApiDocument, createMetrics } from '@platform/http';
import { InProcessBus } from '@platform/messaging';
import type { CommonServiceConfig } from './service-config';
import type { ServiceDefinition, ServiceDeps } from './run-service';

/** The service's OpenAPI builder, the one runService serves at /openapi.json. */
export function serviceOpenApi(definition: ServiceDefinition): OpenApiDocument {
  return new OpenApiDocument({ title: definition.title, version: '1.0.0', description: definition.description }, definition.basePath);
}

/**
 * The service's OpenAPI document built in-process, without a server, database or broker: its routes are
 * mounted on a bare app whose database is never connected (mounting only registers handlers). For the
 * API lint script and the document tests.
 */
export async function describeService(definition: ServiceDefinition, config: CommonServiceConfig): Promise<object> {
  const openapi = serviceOpenApi(definition);
  const logger = pino({ level: 'silent' });
  const db = createDatabase({ url: 'postgres://document-only.invalid/never-connected' });
  const deps: ServiceDeps = {
    db,
    transport: new InProcessBus(logger),
    logger,
    metrics: createMetrics(definition.name),
    lifecycle: new Lifecycle(),
    openapi,
    dataDir: config.DATA_DIR,
    verifyToken: createJwtVerifier(config),
  };
  try {
    definition.mount(express(), deps);
    return openapi.toJSON();
  } finally {
    await db.destroy();
  }
}
