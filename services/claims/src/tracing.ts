/** Imported first by main.ts: the SDK must start before http, express, pg and amqplib are loaded, so they are instrumented. */
import { startTelemetry } from '@platform/telemetry';

export const telemetry = startTelemetry('claims');
