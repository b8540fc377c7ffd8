import { registerInstrumentations, type InstrumentationBase } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { readConfig, variable } from '@platform/config';

/** The incubating semantic convention's name (it replaced `deployment.environment`). */
const ATTR_DEPLOYMENT_ENVIRONMENT_NAME = 'deployment.environment.name';

export const telemetryVariables = {
  OTEL_EXPORTER_OTLP_ENDPOINT: variable.url(
    'OTLP/HTTP collector to send traces to (`/v1/traces` is appended). Unset: tracing is off and no SDK starts. ' +
      'The SDK reads the other standard `OTEL_*` variables itself, e.g. `OTEL_EXPORTER_OTLP_PROTOCOL` ' +
      '(`http/protobuf`, the default, or `http/json`) and `OTEL_RESOURCE_ATTRIBUTES`',
    ['http', 'https'],
  ),
  OTEL_SERVICE_NAME: variable.string(
    'The `service.name` of the traces; defaults to the process (gateway, claims, evidence, or platform for `pnpm start`)',
  ),
};

export interface Telemetry {
  instrumentations: InstrumentationBase[];
  /** Flushes what is buffered and stops tracing. */
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** Where spans go instead of OTLP (a test's in-memory exporter); tracing starts even with no endpoint set. */
  exporter?: SpanExporter;
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts the OpenTelemetry Node SDK once for the process: tracer provider, W3C propagation, the OTLP exporter the
 * standard environment variables choose, and the http, express and pg instrumentations (messages get the
 * platform's own producer and consumer spans, @platform/messaging). Call it before those modules are loaded: the
 * instrumentations patch them as they are required. With no OTEL_EXPORTER_OTLP_ENDPOINT (and no exporter given)
 * nothing starts and tracing costs nothing. Metrics stay with Prometheus and logs with stdout: the SDK exports traces only.
 */
export function startTelemetry(processName: string, options: TelemetryOptions = {}): Telemetry | undefined {
  const env = options.env ?? process.env;
  const config = readConfig(telemetryVariables, env);
  if (!options.exporter && !config.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const instrumentations: InstrumentationBase[] = [
    // Probes and scrapes would otherwise be most of the traces.
    new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)\b/.test(req.url ?? '') }),
    new ExpressInstrumentation(),
    new PgInstrumentation({ requireParentSpan: true }),
  ];
  const sdk = new NodeSDK({
    serviceName: config.OTEL_SERVICE_NAME ?? processName,
    resource: resourceFromAttributes({
      [ATTR_SERVICE_VERSION]: env.BUILD_VERSION || 'dev',
      [ATTR_DEPLOYMENT_ENVIRONMENT_NAME]: env.NODE_ENV || 'development',
    }),
    ...(options.exporter ? { spanProcessors: [new SimpleSpanProcessor(options.exporter)] } : {}),
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  // Registered here rather than by the SDK, for the handle that undoes the patches at shutdown.
  const unregister = registerInstrumentations({ instrumentations });
  return {
    instrumentations,
    async shutdown() {
      unregister();
      await sdk.shutdown();
    },
  };
}
