import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENDPOINT_LIST } from '@marquee/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
// Tooling of the protocol package, not part of its index.
import { REFERENCE_DOCS, renderReference, schemaTable } from '../../../packages/protocol/src/reference.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('generated endpoint reference', () => {
  it.each(REFERENCE_DOCS.map((spec) => [spec.file, spec] as const))(
    '%s is current (npm run docs:protocol)',
    (file, spec) => {
      const committed = readFileSync(resolve(root, file), 'utf8');
      // One assertion on equality, not a diff of 3,000 lines: the fix is always the same command.
      expect(committed === renderReference(spec), `${file} is stale: run npm run docs:protocol and commit it`).toBe(
        true,
      );
    },
  );

  it('has a section for every console endpoint', () => {
    const text = renderReference(REFERENCE_DOCS[0]);
    for (const def of ENDPOINT_LIST) {
      expect(text).toContain(`### ${def.name}\n`);
      expect(text).toContain(`POST ${def.path}`);
    }
  });

  it('lists fields with type, bounds, optionality and defaults, nested ones by path', () => {
    const table = schemaTable(
      z
        .object({
          name: z.string().min(1).max(64),
          page: z.number().int().min(1).default(1),
          kind: z.enum(['a', 'b']).optional(),
          items: z.array(z.object({ id: z.string() })).max(10),
        })
        .strict(),
      'input',
      'Request',
    );
    expect(table).toContain('| `name` | string (1-64 chars) | required |');
    expect(table).toContain('| `page` | integer (>= 1) | optional, default 1 |');
    expect(table).toContain("| `kind` | 'a' \\| 'b' | optional |");
    expect(table).toContain('| `items[].id` | string | required |');
  });

  it("lists a union's shapes with their fields, named by their tag (device.sendCommand)", () => {
    const text = renderReference(REFERENCE_DOCS[0]);
    const section = text.slice(text.indexOf('### device.sendCommand\n'), text.indexOf('### device.commands\n'));
    // The watermark is no command any more (the manifest's, docs/device-protocol.md 2.7.5).
    expect(section).toContain('Request: one of 9 shapes (by `kind`)');
    expect(section).toContain("`kind` = 'volume':");
    expect(section).toContain('| `params.level` | integer (<= 100) (>= 0) | required |');
    expect(section).toContain('| `deviceIds` |');
    expect(section).not.toContain('object \\| object');
    // Pairing codes are accepted in either case, and the reference says so.
    const add = text.slice(text.indexOf('### device.add\n'), text.indexOf('### device.pairingCandidates\n'));
    expect(add).toMatch(/`code` \| string matching `\^\[[^\]]*abcdefghjk/);
  });
});
