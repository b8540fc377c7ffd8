/**
 * The object store of the replicated scenario as its own process, as S3 is to the platform: s3rver on a
 * loopback port, its OBJECT_STORE_* settings written as one JSON line on stdout; SIGTERM closes it.
 * s3rver itself sometimes throws on a read racing a delete of the same key (ENOENT on its own file): logged
 * to stderr, and it keeps serving, as a real store would.
 */
import { startS3TestServer } from '../../../packages/files/src/testing/s3-test-server';

process.on('uncaughtException', (error) => process.stderr.write(`s3rver: ${error.message}\n`));
void startS3TestServer().then((server) => {
  process.stdout.write(`${JSON.stringify(server.config)}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
});
