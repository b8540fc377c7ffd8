import express from 'express';
import request from 'supertest';
import { attachmentDisposition, displayFileName, setDownloadHeaders } from './file-names';

describe('display file names', () => {
  it.each([
    ['a right-to-left override', 'invoice\u202Egnp.exe', 'invoicegnp.exe'],
    ['embeddings, isolates and marks', '\u202Aa\u202Bb\u202Cc\u202Dd\u2066e\u2067f\u2068g\u2069h\u200Ei\u200Fj.pdf', 'abcdefghij.pdf'],
    ['zero-width and BOM characters', 'ph\u200Boto\uFEFF.jpg', 'photo.jpg'],
    ['C0 and C1 controls', 'a\u0000b\u001fc\u007fd\u0085e.png', 'abcde.png'],
    ['line and paragraph separators', 'a\u2028b\u2029c.txt', 'abc.txt'],
    ['directories', 'C:\\Users\\ana\\..\\photo.jpg', 'photo.jpg'],
    ['surrounding spaces', '  photo.jpg  ', 'photo.jpg'],
  ])('drops %s', (_what, raw, shown) => {
    expect(displayFileName(raw)).toBe(shown);
  });

  it('keeps letters of every script, and emoji, whole', () => {
    expect(displayFileName('Schadensmeldung für Ärztin — تقرير 📷.pdf')).toBe('Schadensmeldung für Ärztin — تقرير 📷.pdf');
  });

  it('bounds a name to 255 characters without splitting one', () => {
    const name = displayFileName('📷'.repeat(300));
    expect([...(name as string)]).toHaveLength(255);
    expect(name).toBe('📷'.repeat(255));
  });

  it.each([undefined, '', '   ', '.', '..', 'dir/', '\u202E\u200B'])('is undefined when nothing usable is left (%j)', (raw) => {
    expect(displayFileName(raw)).toBeUndefined();
  });
});

describe('file downloads', () => {
  it('name the file as an attachment, cleaned, with an RFC 5987 UTF-8 form', () => {
    expect(attachmentDisposition('bumper ü\u202E.png')).toBe(`attachment; filename="bumper _.png"; filename*=UTF-8''bumper%20%C3%BC.png`);
    expect(attachmentDisposition('a"b.pdf')).toBe(`attachment; filename="a_b.pdf"; filename*=UTF-8''a%22b.pdf`);
    expect(attachmentDisposition('\u202E')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
  });

  it('are never shown inline or sniffed into another type', async () => {
    const app = express();
    app.get('/file', (_req, res) => {
      setDownloadHeaders(res, { contentType: 'text/plain', fileName: 'page.html', size: 5 });
      res.end('<b>x</b>'.slice(0, 5));
    });
    const response = await request(app).get('/file').expect(200);
    expect(response.headers).toMatchObject({
      'content-type': 'text/plain',
      'content-length': '5',
      'content-disposition': `attachment; filename="page.html"; filename*=UTF-8''page.html`,
      'x-content-type-options': 'nosniff',
    });
  });
});
