// A tiny SMTP sink for browser tests: the server under test delivers its mail here, and a
// test reads it (confirmation links, reset links).
import net from 'node:net';

/** A tiny SMTP server (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) that keeps messages. */
export function startSMTP() {
  const messages = [];
  const waiters = [];
  const server = net.createServer((sock) => {
    sock.setEncoding('latin1');
    let buf = '';
    let inData = false;
    let cur = { from: '', to: [], data: '' };
    const reply = (s) => sock.write(s + '\r\n');
    reply('220 sink ESMTP');
    sock.on('data', (chunk) => {
      buf += chunk;
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          cur.data = buf.slice(0, end + 2).replace(/^\.\./gm, '.');
          buf = buf.slice(end + 5);
          inData = false;
          messages.push(cur);
          cur = { from: '', to: [], data: '' };
          reply('250 OK queued');
          for (const w of waiters.splice(0)) w();
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 2);
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO') {
          reply('250-sink');
          reply('250 8BITMIME');
        } else if (verb === 'HELO') reply('250 sink');
        else if (verb === 'MAIL') {
          cur.from = (/<([^>]*)>/.exec(line) || [])[1] || '';
          reply('250 OK');
        } else if (verb === 'RCPT') {
          cur.to.push((/<([^>]*)>/.exec(line) || [])[1] || '');
          reply('250 OK');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 go ahead');
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 OK');
        else if (verb === 'QUIT') {
          reply('221 bye');
          sock.end();
        } else reply('502 not implemented');
      }
    });
    sock.on('error', () => {});
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: server.address().port,
        messages,
        /** waits for a message to addr whose text matches match (any, when not given; up
         * to 20 s) and returns the latest: an address often has an earlier mail (the
         * sign-up's confirmation) that must not be taken for the one awaited */
        async waitFor(addr, match) {
          const deadline = Date.now() + 20000;
          for (;;) {
            const m = messages.filter((x) => x.to.includes(addr) && (!match || match.test(x.data)));
            if (m.length) return m[m.length - 1];
            if (Date.now() > deadline) throw new Error('no mail to ' + addr);
            await new Promise((r) => {
              waiters.push(r);
              setTimeout(r, 200);
            });
          }
        },
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}
