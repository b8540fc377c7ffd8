import { telemetry } from './tracing';
import { serviceMain } from '@platform/runtime';
import { readEvidenceConfig } from './config';
import { evidenceService } from './service';

serviceMain({ name: 'evidence', readConfig: readEvidenceConfig, define: evidenceService, telemetry });
