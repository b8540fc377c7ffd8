import http from 'node:http';

export interface EndlessUploadOutcome {
  /** The status of the answer, or undefined when the connection ended without one. */
  status?: number;
  /** The answer's body, as text. */
  body: string;
  /** Body bytes the client managed to write before the server answered and closed the connection. */
  sentBytes: number;
  /** Milliseconds from the answer's headers to the connection closing. */
  closedMsAfterAnswer?: number;
}

/**
 * POSTs a chunked body of up to `totalBytes` (`prefix`, then random-looking filler) as fast as the server
 * reads it, and stops once the connection closes. A server that refuses the
 * body at a size cap and stops reading ends this long before `totalBytes`; one that drains the rest first
 * does not.
 */
export function endlessUpload(
  url: string,
  headers: http.OutgoingHttpHeaders,
  prefix: Buffer,
  totalBytes: number,
): Promise<EndlessUploadOutcome> {
  return new Promise((resolve) => {
    const filler = Buffer.alloc(256 * 1024, 0x5a);
    const outcome: EndlessUploadOutcome = { body: '', sentBytes: 0 };
    let done = false;
    let answeredAt: number | undefined;
    const finish = () => {
      if (done) return;
      done = true;
      if (answeredAt !== undefined) outcome.closedMsAfterAnswer = Date.now() - answeredAt;
      req.destroy();
      resolve(outcome);
    };
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'Transfer-Encoding': 'chunked' } });
    req.on('response', (res) => {
      outcome.status = res.statusCode;
      answeredAt = Date.now();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (outcome.body += chunk));
    });
    // Not on the answer's end: a server that answers early but then reads the rest to keep the connection
    // alive would take the whole body; only the connection closing ends the upload early.
    req.on('error', finish);
    req.on('close', finish);
    let prefixSent = false;
    const pump = () => {
      while (!done && outcome.sentBytes < totalBytes) {
        const chunk = prefixSent ? filler : prefix;
        prefixSent = true;
        outcome.sentBytes += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!done) req.end();
    };
    pump();
  });
}
