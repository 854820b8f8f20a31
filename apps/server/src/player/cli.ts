import { readFile, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { AGE_BANDS, type AudienceReport, deviceCredentialsSchema, ErrorCode } from '@marquee/protocol';
import { ContentPlayer } from './content.js';
import { DeviceApiError, HeadlessPlayer } from './player.js';

/**
 * `npm run player -- --server http://localhost:8080 [--number SN123] [--state player.json]
 * [--broker ws://host/mqtt] [--heartbeat 30] [--audience]`: pairs (prints the code and its QR content),
 * waits for an operator to add it in the console, keeps the credentials in --state, then
 * stays online answering commands until Ctrl-C. Typing `alarm` (and Enter) raises a one-key
 * alarm with a screenshot (docs/device-protocol.md 2.10); it is re-sent after a reconnection
 * until the server answers. With --audience each heartbeat carries
 * simulated audience counts (a demo of the protocol's optional `audience`; a real player
 * sends only what its sensor counted).
 *
 * With --offline-package <file.tar> (and the --state of a device paired before) it plays an
 * offline package exported from the console (docs/device-protocol.md 2.11) without a network:
 * every file is verified first; plays are kept and uploaded whenever the server answers.
 */
const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'http://localhost:8080' },
    number: { type: 'string' },
    state: { type: 'string' },
    broker: { type: 'string' },
    heartbeat: { type: 'string' },
    audience: { type: 'boolean', default: false },
    'offline-package': { type: 'string' },
  },
});

const player = new HeadlessPlayer({
  server: values.server as string,
  number: values.number,
  brokerUrl: values.broker,
  heartbeatSec: values.heartbeat ? Number(values.heartbeat) : undefined,
  audience: values.audience ? simulatedAudience : undefined,
});

async function loadState() {
  if (!values.state) return null;
  try {
    return deviceCredentialsSchema.parse(JSON.parse(await readFile(values.state, 'utf8')));
  } catch {
    return null;
  }
}

/** A few passers-by per heartbeat, spread over the age bands (the --audience demo). */
function simulatedAudience(): AudienceReport {
  return AGE_BANDS.flatMap((band) =>
    (['male', 'female'] as const).map((gender) => ({ band, gender, count: Math.floor(Math.random() * 4) })),
  );
}

let credentials = await loadState();
const offlinePath = values['offline-package'];
if (offlinePath) {
  if (!credentials) {
    process.stderr.write('--offline-package needs --state with the credentials of a device paired before.\n');
    process.exit(1);
  }
  const paired = credentials;
  const content = new ContentPlayer({
    server: values.server as string,
    credentials: () => paired,
    onUploaded: (accepted) => process.stdout.write(`${accepted} plays uploaded\n`),
  });
  try {
    const index = await content.loadPackage(offlinePath);
    process.stdout.write(
      `Playing the offline package of ${index.deviceName} made ${new Date(index.generatedAt).toISOString()}: ` +
        `${index.manifest.items.length} items, ${index.manifest.files.length} files verified.\n` +
        'Plays are kept and uploaded whenever the server answers.\n',
    );
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
  content.start();
  const stopOffline = async () => {
    await content.stop();
    process.stdout.write(`${content.journal.length} plays kept (not uploaded yet)\n`);
    process.exit(0);
  };
  process.once('SIGINT', () => void stopOffline());
  process.once('SIGTERM', () => void stopOffline());
  await new Promise(() => {});
}
if (!credentials) {
  const pairing = await player.pair();
  process.stdout.write(
    `Pairing code: ${pairing.code}\nQR: ${pairing.qr}\nEnter the code in the console's add-device dialog (valid until ${new Date(pairing.expiresAt).toISOString()}).\n`,
  );
  credentials = await player.awaitCredentials(pairing);
  if (values.state) await writeFile(values.state, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  process.stdout.write(`Activated as ${credentials.name} (${credentials.deviceId})\n`);
}
player.onCommandReceived((command) => process.stdout.write(`command ${command.kind} ${command.id}\n`));
try {
  await player.connect(credentials);
} catch (error) {
  // Refused by the broker: ask the server why (docs/device-protocol.md 2.4).
  const why = await player.checkStatus(credentials).then(
    () => null,
    (e: unknown) => e,
  );
  if (why instanceof DeviceApiError && why.code === ErrorCode.DEVICE_REMOVED) {
    process.stderr.write(`${why.message}. Remove ${values.state ?? 'the saved state'} and start again to pair.\n`);
  } else if (why instanceof DeviceApiError && why.code === ErrorCode.DEVICE_DISABLED) {
    process.stderr.write(`${why.message}.\n`);
  } else {
    process.stderr.write(`Cannot connect: ${String(error)}\n`);
  }
  process.exit(1);
}
process.stdout.write(`Online via ${player.brokerUrl()}\n`);
process.stdout.write('Type "alarm" and Enter to raise a one-key alarm.\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim().toLowerCase() !== 'alarm') return;
  void player.raiseAlarm().then((id) => {
    const result = player.alarmAnswers.get(id);
    process.stdout.write(result ? `alarm ${id} ${result}\n` : `alarm ${id} pending (will be sent again)\n`);
  });
});
const stop = async () => {
  await player.stop();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
