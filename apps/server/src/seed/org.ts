import { eq } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords.js';
import type { Executor } from '../db/client.js';
import { enterprises } from '../db/schema/index.js';
import { updateEnterpriseRow } from '../modules/enterprise/repository.js';
import { createEnterpriseWithAdmin } from '../modules/enterprise/service.js';
import { DEMO_PASSWORD } from './demoLogins.js';

const PASSWORD = DEMO_PASSWORD;

/**
 * Demo data of /user/company: contacts of the demo enterprises, an agent company
 * ('agentadmin') with one customer enterprise of its own ('riverside'), and a paused company,
 * so the platform operator's list shows every kind and status.
 */
export async function seedOrgDemo(db: Executor, now: Date): Promise<void> {
  const contacts: Record<string, { contact: string; phone: string }> = {
    'Marquee Platform': { contact: 'Operations Desk', phone: '4008001000' },
    'Demo Media Co., Ltd.': { contact: 'Chen Jie', phone: '13800000001' },
    'Citywide Ad Monitoring Ltd.': { contact: 'Zhou Lan', phone: '13700000010' },
    'Other Outdoor Media Ltd.': { contact: 'Sun Hao', phone: '13600000020' },
  };
  for (const [name, values] of Object.entries(contacts)) {
    const [row] = await db.select({ id: enterprises.id }).from(enterprises).where(eq(enterprises.name, name));
    if (row) await updateEnterpriseRow(db, row.id, values);
  }
  const passwordHash = await hashPassword(PASSWORD);
  const agent = await createEnterpriseWithAdmin(db, {
    kind: 'agent',
    name: 'Eastern Screens Agency Co.',
    socialCreditCode: '91310000MA1AGENT01',
    contact: 'Gao Fei',
    phone: '13500000030',
    welcomeSpeech: 'Eastern Screens: your partner for outdoor media',
    admin: { loginName: 'agentadmin', passwordHash, realName: 'Agency Administrator' },
    now,
  });
  await createEnterpriseWithAdmin(db, {
    kind: 'enterprise',
    parentId: agent.id,
    name: 'Riverside Malls Group',
    socialCreditCode: '91310000MA1RIVER01',
    contact: 'Lu Yan',
    phone: '13500000031',
    accountType: 'enterprise',
    admin: { loginName: 'riverside', passwordHash, realName: 'Riverside Administrator' },
    now,
  });
  const paused = await createEnterpriseWithAdmin(db, {
    kind: 'enterprise',
    name: 'Harbor Kiosk Studio',
    socialCreditCode: '91440300MA5HARBOR1',
    contact: 'Lin Mei',
    phone: '13300000040',
    accountType: 'individual',
    admin: { loginName: 'harborkiosk', passwordHash, realName: 'Lin Mei' },
    now,
  });
  await updateEnterpriseRow(db, paused.id, { status: 'paused' });
}
