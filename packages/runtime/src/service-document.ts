import express, { type Express } from 'express';
import pino from 'pino';
import { createJwtVerifier } from '@platform/auth';
import { createDatabase } from '@platform/db';
import { Lifecycle, OpenApiDocument, createMetrics } from '@platform/http';
import { InProcessBus } from '@platform/messaging';
import type { CommonServiceConfig } from './service-config';
import type { ServiceDefinition, ServiceDeps } from './run-service';

/** The service's OpenAPI builder, the one runService serves at /openapi.json. */
export function serviceOpenApi(definition: ServiceDefinition): OpenApiDocument {
  return new OpenApiDocument(
    { title: definition.title, version: '1.0.0', description: definition.description },
    definition.basePath,
    definition.tags,
  );
}

/**
 * The service's routes mounted on a bare app, with the OpenAPI document they register, without a server,
 * database or broker: the database is never connected (mounting only registers handlers). close() releases it.
 */
export function mountWithoutServer(
  definition: ServiceDefinition,
  config: CommonServiceConfig,
): { app: Express; openapi: OpenApiDocument; close(): Promise<void> } {
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
  const app = express();
  try {
    definition.mount(app, deps);
  } catch (error) {
    void db.destroy();
    throw error;
  }
  return { app, openapi, close: () => db.destroy() };
}

/** The service's OpenAPI document built in-process (mountWithoutServer). For the API lint script and the document tests. */
export async function describeService(definition: ServiceDefinition, config: CommonServiceConfig): Promise<object> {
  const mounted = mountWithoutServer(definition, config);
  try {
    return mounted.openapi.toJSON();
  } finally {
    await mounted.close();
  }
}
