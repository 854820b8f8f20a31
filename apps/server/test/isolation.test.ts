import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  ADVERTISER_ROLE_CODES,
  ALL_PERMISSION_CODES,
  type Audience,
  ENDPOINT_LIST,
  type EndpointDef,
  ErrorCode,
  hasPermission,
  Perm,
  RefType,
} from '@marquee/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advertiserAssignments,
  allocations,
  contentPushes,
  type DataScope,
  deviceCommands,
  deviceScreenshots,
  devices,
  devOutbox,
  enterprises,
  flowDays,
  iotCards,
  marketItems,
  marketOrders,
  marketRenewals,
  operationLogExports,
  operationLogs,
  spliceWalls,
  stores,
} from '../src/db/schema/index.js';
import { createAdvertiser } from '../src/modules/advertisers/service.js';
import { insertDepartment } from '../src/modules/dept/repository.js';
import { insertEnterprise } from '../src/modules/enterprise/repository.js';
import { USAGE_EXPORT_KIND } from '../src/modules/flow/exportSource.js';
import { ensureEnterpriseWallet } from '../src/modules/ledger/accounts.js';
import { createNotice } from '../src/modules/notice/service.js';
import { exportKey } from '../src/modules/operationLog/exportJob.js';
import { nextOrderNo, openPayOrder } from '../src/modules/payments/settle.js';
import { createRole } from '../src/modules/roles/repository.js';
import { createStationLetter } from '../src/modules/stationLetter/service.js';
import { insertTemplate } from '../src/modules/templates/repository.js';
import { WARNINGS_EXPORT_KIND } from '../src/modules/warnings/exportSource.js';
import { enterpriseKey } from '../src/storage/storage.js';
import { insertAd, insertPlan } from './fixtures/ads.js';
import { insertAlarmDevice, insertAlarmEvent, insertAlarmRegion } from './fixtures/alarms.js';
import { insertCustomField } from './fixtures/customFields.js';
import { insertCategory, insertGroup, insertTag } from './fixtures/deviceGroups.js';
import { insertFeedback } from './fixtures/feedback.js';
import { insertHelpDoc } from './fixtures/help.js';
import { insertProduct } from './fixtures/market.js';
import { insertFolder, insertMaterial, insertMaterialCategory } from './fixtures/materials.js';
import { insertInvoice, insertPayOrder, insertWalletWithMovement } from './fixtures/money.js';
import { insertMonitor, monitoringWorld } from './fixtures/monitoring.js';
import { image, insertPendingPoster, insertPosterTemplate } from './fixtures/posters.js';
import { insertScans } from './fixtures/qrcode.js';
import { insertAuction, insertCampaign, insertDsp, insertRtbSlot } from './fixtures/rtb.js';
import {
  insertContract,
  insertCoupon,
  insertGoods,
  insertPriceContract,
  insertSalesOrder,
  insertScreens,
  insertSlot,
  salesDay,
} from './fixtures/sales.js';
import { insertSpecialInquiry, insertSpecialResource } from './fixtures/special.js';
import { insertStrategy } from './fixtures/strategies.js';
import { insertUpgradePackage, insertUpgradeRollout } from './fixtures/upgrades.js';
import { insertWarning } from './fixtures/warnings.js';
import {
  BACKENDS,
  createEnterprise,
  createTestApp,
  createUser,
  TEST_LETTER,
  TEST_PASSWORD,
  type TestApp,
  type TestEnterprise,
  uniqueName,
} from './helpers/index.js';

/**
 * The isolation matrix (guide convention 3, issue 3). Every catalogue endpoint that reads
 * enterprise data declares `scope` (which object, who may see it); every other session read
 * declares why it is `unscoped`. For each object kind a fixture below makes one object in a
 * fresh enterprise, and every caller of CALLERS calls every endpoint reading that kind. What
 * each caller should see is worked out here, independently of the server, from the object's
 * facts and the endpoint's audience (`expected` below); a caller who sees what it should not
 * is a leak. A new endpoint over an existing object kind joins with no test code; a new
 * object kind needs one fixture.
 */

/** What decides who may see an object (the oracle's input). */
interface Facts {
  id: string;
  /** The text to look for in a list answer (default: the id). */
  marker?: string;
  entId: string;
  /** For `managed`: the enterprise that manages the object (an enterprise's agent). */
  managerEntId?: string;
  deptIds?: string[];
  ownerId?: string;
  sharedAccounts?: string[];
  sharedDepts?: { dept: string; type: 1 | 2 }[];
  /** For `parentField` endpoints: the parent the request names. */
  parent?: Facts;
  /** For `wallet`: the object names an advertiser's wallet (this advertiser's account); else the enterprise's. */
  walletAdvertiserId?: string;
}

interface World {
  t: TestApp;
  ent: TestEnterprise;
  /** root -> a -> a1 (the object's department), root -> b, root -> c -> c1 */
  c: string;
  c1: string;
  /** Department id to its parent (null for the root). */
  parents: Map<string, string | null>;
  /** A self-scope account in A1 that owns the object. */
  owner: { id: string; loginName: string; password: string };
  /** A self-scope account in C1 the object is shared with (or an advertiser is assigned to). */
  sharedAccount: { id: string; loginName: string; password: string };
  /** An advertiser of the enterprise in A1 (made on first use: advertiserOf). */
  advertiser?: Promise<{ id: string; loginName: string; password: string }>;
}

/** The world's advertiser (one per world): a money fixture's wallet owner and a caller. */
function advertiserOf(w: World) {
  w.advertiser ??= (async () => {
    const loginName = uniqueName('adv');
    const id = await createAdvertiser(w.t.db, {
      entId: w.ent.id,
      deptId: w.ent.depts.a1,
      createdBy: null,
      loginName,
      password: TEST_PASSWORD,
      realName: 'Money advertiser',
    });
    return { id, loginName, password: TEST_PASSWORD };
  })();
  return w.advertiser;
}

const FIXTURES: Record<string, (w: World) => Promise<Facts>> = {
  // An ad in A1 made by the owner (an advertiser's is the same: self scope), shared with C alone and one account in C1 (ref-type '5').
  ad: async (w) => {
    const id = await insertAd(w.t, { entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id });
    await w.t.db.insert(allocations).values([
      { entId: w.ent.id, refType: RefType.ad, refId: id, targetType: 1, targetId: w.c, deptDataType: 2 },
      { entId: w.ent.id, refType: RefType.ad, refId: id, targetType: 2, targetId: w.sharedAccount.id, deptDataType: 2 },
    ]);
    return {
      id,
      entId: w.ent.id,
      deptIds: [w.ent.depts.a1],
      ownerId: w.owner.id,
      sharedDepts: [{ dept: w.c, type: 2 }],
      sharedAccounts: [w.sharedAccount.id],
    };
  },
  // A promotion plan in A1 made by the owner (plans are not shared; the default plan is everyone's, not this one).
  adPlan: async (w) => {
    const id = await insertPlan(w.t, { entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id });
    return { id, entId: w.ent.id, deptIds: [w.ent.depts.a1], ownerId: w.owner.id };
  },
  template: async (w) => {
    const { id } = await insertTemplate(w.t.db, {
      entId: w.ent.id,
      deptId: w.ent.depts.a1,
      ownerId: w.owner.id,
      name: 'Isolated template',
    });
    await w.t.db.insert(allocations).values([
      { entId: w.ent.id, refType: RefType.template, refId: id, targetType: 1, targetId: w.c, deptDataType: 2 },
      {
        entId: w.ent.id,
        refType: RefType.template,
        refId: id,
        targetType: 2,
        targetId: w.sharedAccount.id,
        deptDataType: 2,
      },
    ]);
    return {
      id,
      entId: w.ent.id,
      deptIds: [w.ent.depts.a1],
      ownerId: w.owner.id,
      sharedDepts: [{ dept: w.c, type: 2 }],
      sharedAccounts: [w.sharedAccount.id],
    };
  },
  // The owner's own account: an account is its own "owner".
  account: async (w) => ({ id: w.owner.id, entId: w.ent.id, deptIds: [w.ent.depts.a1], ownerId: w.owner.id }),
  role: async (w) => {
    const { id } = await createRole(w.t.db, {
      entId: w.ent.id,
      name: uniqueName('Isolated role'),
      deptId: w.ent.depts.a1,
      dataScope: 'self',
      permissionCodes: [],
    });
    return { id, entId: w.ent.id, deptIds: [w.ent.depts.a1] };
  },
  department: async (w) => ({
    id: w.ent.depts.a1,
    entId: w.ent.id,
    deptIds: [w.ent.depts.a1],
    parent: { id: w.ent.depts.a, entId: w.ent.id, deptIds: [w.ent.depts.a] },
  }),
  operationLog: async (w) => {
    const marker = uniqueName('isolated_action');
    const [row] = await w.t.db
      .insert(operationLogs)
      .values({ entId: w.ent.id, accountId: w.owner.id, deptId: w.ent.depts.a1, module: 'isolation', action: marker })
      .returning({ id: operationLogs.id });
    return { id: row.id, marker, entId: w.ent.id, deptIds: [w.ent.depts.a1], ownerId: w.owner.id };
  },
  logExport: (w) => finishedExport(w, 'operationLog', 'operation-log.xlsx'),
  advertiser: async (w) => {
    const id = await createAdvertiser(w.t.db, {
      entId: w.ent.id,
      deptId: w.ent.depts.a1,
      createdBy: null,
      loginName: uniqueName('adv'),
      password: TEST_PASSWORD,
      realName: 'Isolated advertiser',
    });
    await w.t.db
      .insert(advertiserAssignments)
      .values({ entId: w.ent.id, advertiserAccountId: id, staffAccountId: w.sharedAccount.id });
    return { id, entId: w.ent.id, deptIds: [w.ent.depts.a1], sharedAccounts: [w.sharedAccount.id] };
  },
  // A screen in A1 added by the owner, shared like a template (ref-type '1').
  device: async (w) => {
    const [row] = await w.t.db
      .insert(devices)
      .values({ entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id, name: 'Isolated device' })
      .returning({ id: devices.id });
    await w.t.db.insert(allocations).values([
      { entId: w.ent.id, refType: RefType.device, refId: row.id, targetType: 1, targetId: w.c, deptDataType: 2 },
      {
        entId: w.ent.id,
        refType: RefType.device,
        refId: row.id,
        targetType: 2,
        targetId: w.sharedAccount.id,
        deptDataType: 2,
      },
    ]);
    return {
      id: row.id,
      entId: w.ent.id,
      deptIds: [w.ent.depts.a1],
      ownerId: w.owner.id,
      sharedDepts: [{ dept: w.c, type: 2 }],
      sharedAccounts: [w.sharedAccount.id],
    };
  },
  // A push of a new manifest to the isolated device (its issued record): seen by whoever sees the device.
  push: async (w) => {
    const device = await FIXTURES.device(w);
    const [push] = await w.t.db
      .insert(contentPushes)
      .values({ entId: w.ent.id, reason: 'broadcast', accountId: w.owner.id, deviceCount: 1 })
      .returning({ id: contentPushes.id });
    await w.t.db.insert(deviceCommands).values({
      entId: w.ent.id,
      deviceId: device.id,
      kind: 'syncContent',
      params: {},
      pushId: push.id,
      expiresAt: new Date(w.t.clock.now() + 86_400_000),
    });
    return { ...device, id: push.id };
  },
  // A store in A1 added by the owner (stores are not shared; issue 9, geography).
  store: async (w) => {
    const [row] = await w.t.db
      .insert(stores)
      .values({ entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id, name: 'Isolated store' })
      .returning({ id: stores.id });
    return { id: row.id, entId: w.ent.id, deptIds: [w.ent.depts.a1], ownerId: w.owner.id };
  },
  // A device strategy in A1 made by the owner (strategies are not shared).
  strategy: async (w) => {
    const id = await insertStrategy(w.t, { entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id });
    return { id, entId: w.ent.id, deptIds: [w.ent.depts.a1], ownerId: w.owner.id };
  },
  // A screenshot of a device like the one above (scoped through its device), with its file.
  screenshot: async (w) => {
    const [device] = await w.t.db
      .insert(devices)
      .values({ entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id, name: 'Isolated screen' })
      .returning({ id: devices.id });
    await w.t.db.insert(allocations).values([
      { entId: w.ent.id, refType: RefType.device, refId: device.id, targetType: 1, targetId: w.c, deptDataType: 2 },
      {
        entId: w.ent.id,
        refType: RefType.device,
        refId: device.id,
        targetType: 2,
        targetId: w.sharedAccount.id,
        deptDataType: 2,
      },
    ]);
    const key = enterpriseKey(w.ent.id, 'screenshots', device.id, 'isolated.png');
    await w.t.services.files.storage.put(key, Readable.from([Buffer.from('png')]), { contentType: 'image/png' });
    const [row] = await w.t.db
      .insert(deviceScreenshots)
      .values({
        entId: w.ent.id,
        deviceId: device.id,
        fileKey: key,
        contentType: 'image/png',
        size: 3,
        width: 1,
        height: 1,
        trigger: 'manual',
        takenAt: new Date(w.t.clock.now()),
      })
      .returning({ id: deviceScreenshots.id });
    return {
      id: row.id,
      entId: w.ent.id,
      deptIds: [w.ent.depts.a1],
      ownerId: w.owner.id,
      sharedDepts: [{ dept: w.c, type: 2 }],
      sharedAccounts: [w.sharedAccount.id],
    };
  },
  // A device group in A1 owned by the owner, shared like a template (ref-type '2').
  deviceGroup: async (w) => {
    const id = await insertGroup(w.t, { entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id });
    await w.t.db.insert(allocations).values([
      { entId: w.ent.id, refType: RefType.deviceGroup, refId: id, targetType: 1, targetId: w.c, deptDataType: 2 },
      {
        entId: w.ent.id,
        refType: RefType.deviceGroup,
        refId: id,
        targetType: 2,
        targetId: w.sharedAccount.id,
        deptDataType: 2,
      },
    ]);
    return {
      id,
      entId: w.ent.id,
      deptIds: [w.ent.depts.a1],
      ownerId: w.owner.id,
      sharedDepts: [{ dept: w.c, type: 2 }],
      sharedAccounts: [w.sharedAccount.id],
    };
  },
  // Tags and their categories are the enterprise's vocabulary (audience tenant).
  tag: async (w) => ({ id: await insertTag(w.t, w.ent.id), entId: w.ent.id }),
  tagCategory: async (w) => ({ id: await insertCategory(w.t, w.ent.id), entId: w.ent.id }),
  // A split screen in A1 made by the owner (walls are not shared: department and owner only).
  splice: async (w) => {
    const [row] = await w.t.db
      .insert(spliceWalls)
      .values({ entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id, name: 'Isolated wall', rows: 2, cols: 2 })
      .returning({ id: spliceWalls.id });
    return { id: row.id, entId: w.ent.id, deptIds: [w.ent.depts.a1], ownerId: w.owner.id };
  },
  reportExport: (w) => finishedExport(w, 'report', 'ad-report.xlsx'),
  deviceExport: (w) => finishedExport(w, 'device', 'devices.xlsx'),
  deviceReportExport: (w) => finishedExport(w, 'deviceReport', 'device-report.xlsx'),
  qrcodeExport: (w) => finishedExport(w, 'qrcode', 'qrcode-events.xlsx'),
  // Scans of the device fixture's device: the QR report (per device, REQUEST_EXTRA) names it to whoever sees the device.
  qrcodeScan: async (w) => {
    const facts = await FIXTURES.device(w);
    await insertScans(w.t, {
      entId: w.ent.id,
      deviceId: facts.id,
      layoutId: 'isolated-layout',
      at: w.t.clock.now(),
      n: 2,
    });
    return facts;
  },
  // An enterprise under the world's enterprise, which becomes an agent.
  enterprise: async (w) => {
    await w.t.db.update(enterprises).set({ kind: 'agent' }).where(eq(enterprises.id, w.ent.id));
    const { id } = await insertEnterprise(w.t.db, { kind: 'enterprise', parentId: w.ent.id, name: uniqueName('Sub') });
    return { id, entId: id, managerEntId: w.ent.id };
  },
  notice: async (w) => {
    const { id } = await createNotice(w.t.db, {
      entId: w.ent.id,
      title: 'Isolated notice',
      content: '<p>only here</p>',
    });
    return { id, entId: w.ent.id };
  },
  stationLetter: async (w) => {
    const marker = uniqueName('Isolated letter');
    const { id } = await createStationLetter(w.t.db, {
      entId: w.ent.id,
      accountId: w.owner.id,
      kind: TEST_LETTER,
      params: { text: marker },
    });
    return { id, marker, entId: w.ent.id, ownerId: w.owner.id };
  },
  // A poster template in A1 owned by the owner, shared like a template (ref-type '6'), with a poster made from it.
  posterTemplate: async (w) => {
    const id = await insertPosterTemplate(w.t, { entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id });
    await insertPendingPoster(w.t, { entId: w.ent.id, accountId: w.owner.id, templateId: id }, image(96, 64), 'done');
    await w.t.db.insert(allocations).values([
      { entId: w.ent.id, refType: RefType.poster, refId: id, targetType: 1, targetId: w.c, deptDataType: 2 },
      {
        entId: w.ent.id,
        refType: RefType.poster,
        refId: id,
        targetType: 2,
        targetId: w.sharedAccount.id,
        deptDataType: 2,
      },
    ]);
    return {
      id,
      entId: w.ent.id,
      deptIds: [w.ent.depts.a1],
      ownerId: w.owner.id,
      sharedDepts: [{ dept: w.c, type: 2 }],
      sharedAccounts: [w.sharedAccount.id],
    };
  },
  // A verification code sent to someone of the world's enterprise: only the operator reads the outbox.
  outboxMessage: async (w) => {
    const marker = uniqueName('isolated code');
    const [row] = await w.t.db
      .insert(devOutbox)
      .values({ channel: 'sms', target: '13800000000', purpose: 'login', code: '123456', text: marker })
      .returning({ id: devOutbox.id });
    return { id: row.id, marker, entId: w.ent.id };
  },
  // A material folder in A1 made by the owner, shared with C alone and one account in C1 (ref-type '4').
  materialFolder: async (w) => {
    const folder = await insertFolder(w.t, { entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id });
    await w.t.db.insert(allocations).values([
      {
        entId: w.ent.id,
        refType: RefType.materialFolder,
        refId: folder.id,
        targetType: 1,
        targetId: w.c,
        deptDataType: 2,
      },
      {
        entId: w.ent.id,
        refType: RefType.materialFolder,
        refId: folder.id,
        targetType: 2,
        targetId: w.sharedAccount.id,
        deptDataType: 2,
      },
    ]);
    return {
      id: folder.id,
      entId: w.ent.id,
      deptIds: [w.ent.depts.a1],
      ownerId: w.owner.id,
      sharedDepts: [{ dept: w.c, type: 2 }],
      sharedAccounts: [w.sharedAccount.id],
    };
  },
  // A material in A1 of the owner: its folder shared with C alone (inherited), itself with one account in C1.
  material: async (w) => {
    const folder = await insertFolder(w.t, { entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id });
    const id = await insertMaterial(w.t, {
      entId: w.ent.id,
      deptId: w.ent.depts.a1,
      ownerId: w.owner.id,
      folderId: folder.id,
    });
    await w.t.db.insert(allocations).values([
      {
        entId: w.ent.id,
        refType: RefType.materialFolder,
        refId: folder.id,
        targetType: 1,
        targetId: w.c,
        deptDataType: 2,
      },
      {
        entId: w.ent.id,
        refType: RefType.material,
        refId: id,
        targetType: 2,
        targetId: w.sharedAccount.id,
        deptDataType: 2,
      },
    ]);
    return {
      id,
      entId: w.ent.id,
      deptIds: [w.ent.depts.a1],
      ownerId: w.owner.id,
      sharedDepts: [{ dept: w.c, type: 2 }],
      sharedAccounts: [w.sharedAccount.id],
    };
  },
  materialCategory: async (w) => ({ id: await insertMaterialCategory(w.t, w.ent.id), entId: w.ent.id }),
  // Money (issue 26, audience 'wallet'): the enterprise's wallet with one movement (a recharge).
  wallet: async (w) => {
    const { walletId } = await insertWalletWithMovement(w.t.db, { entId: w.ent.id, now: new Date(w.t.clock.now()) });
    return { id: walletId, entId: w.ent.id };
  },
  // A recharge of that wallet by a bank transfer awaiting review (the order list, its page, the review list).
  payOrder: async (w) => {
    const { walletId } = await insertWalletWithMovement(w.t.db, { entId: w.ent.id, now: new Date(w.t.clock.now()) });
    const { id } = await insertPayOrder(w.t.db, {
      entId: w.ent.id,
      walletId,
      createdBy: w.owner.id,
      now: new Date(w.t.clock.now()),
    });
    return { id, entId: w.ent.id };
  },
  // An invoice the enterprise asked for of its wallet.
  invoice: async (w) => {
    const { walletId } = await insertWalletWithMovement(w.t.db, { entId: w.ent.id, now: new Date(w.t.clock.now()) });
    const id = await insertInvoice(w.t.db, { entId: w.ent.id, walletId, requestedBy: w.owner.id });
    return { id, entId: w.ent.id };
  },
  // (VARIANTS below: the wallet of an advertiser of the enterprise, too.)
  // The owner's finished export of its wallet's movements (the one export mechanism, kind financeMovements).
  movementExport: (w) => finishedExport(w, 'financeMovements', 'wallet-movements.xlsx'),
  // The market (issue 27, audience tenant): an unpaid order of the enterprise placed by the owner,
  // a storage pack the market keeps for it, and a failed renewal attempt of that pack.
  marketOrder: async (w) => {
    const now = new Date(w.t.clock.now());
    const productId = await insertProduct(w.t, 'storagePack');
    const walletId = await ensureEnterpriseWallet(w.t.db, w.ent.id);
    const no = await nextOrderNo(w.t.db, now);
    const id = randomUUID();
    await openPayOrder(w.t.db, {
      id,
      no,
      purpose: 'market',
      title: 'Isolated pack',
      amount: 1_000,
      walletId,
      entId: w.ent.id,
      createdBy: w.owner.id,
      expiresAt: new Date(now.getTime() + 3_600_000),
      now,
    });
    await w.t.db.insert(marketOrders).values({
      id,
      no: `M${no.slice(1)}`,
      entId: w.ent.id,
      productId,
      kind: 'storagePack',
      productName: 'Isolated pack',
      months: 1,
      unitPrice: 1_000,
      quantity: 1,
      amount: 1_000,
      state: 'unpaid',
      source: 'purchase',
      payOrderId: id,
      createdBy: w.owner.id,
      createdAt: now,
    });
    return { id, entId: w.ent.id, ownerId: w.owner.id };
  },
  marketItem: async (w) => ({ id: await insertPackItem(w), entId: w.ent.id }),
  marketRenewal: async (w) => {
    const itemId = await insertPackItem(w);
    const at = new Date(w.t.clock.now());
    const [row] = await w.t.db
      .insert(marketRenewals)
      .values({
        itemId,
        entId: w.ent.id,
        day: at.toISOString().slice(0, 10),
        at,
        outcome: 'failed',
        reason: 'insufficientBalance',
        amount: 1_000,
        expiresBefore: new Date(at.getTime() + 86_400_000),
      })
      .returning({ id: marketRenewals.id });
    return { id: row.id, entId: w.ent.id };
  },
  // An IoT card of the enterprise (audience tenant) with a day of data used by a device of A1
  // (the consumption report's rows name the card: USAGE_DAY, REQUEST_EXTRA below).
  iotCard: async (w) => {
    const [card] = await w.t.db
      .insert(iotCards)
      .values({
        entId: w.ent.id,
        iccid: `8986${randomUUID().replace(/\D/g, '').padEnd(16, '0').slice(0, 16)}`,
        operator: 'chinaMobile',
      })
      .returning({ id: iotCards.id });
    const [device] = await w.t.db
      .insert(devices)
      .values({ entId: w.ent.id, deptId: w.ent.depts.a1, ownerId: w.owner.id, name: 'Isolated 4G screen' })
      .returning({ id: devices.id });
    await w.t.db
      .insert(flowDays)
      .values({ entId: w.ent.id, day: USAGE_DAY, deviceId: device.id, cardId: card.id, bytes: 1_048_576 });
    return { id: card.id, entId: w.ent.id };
  },
  // The owner's finished export of the data consumption report (the one export mechanism, kind flowUsage).
  usageExport: (w) => finishedExport(w, USAGE_EXPORT_KIND, 'data-usage.xlsx'),
  // The warning centre (issue 30): a warning about the isolated device (seen by whoever sees the
  // device: its data scope and sharing), and the owner's finished warnings export.
  warning: async (w) => {
    const device = await FIXTURES.device(w);
    const id = await insertWarning(w.t, w.ent.id, { objectId: device.id, objectName: 'Isolated device' });
    return { ...device, id };
  },
  warningExport: (w) => finishedExport(w, WARNINGS_EXPORT_KIND, 'warnings.xlsx'),
  // Selling airtime (issue 28). The enterprise's inventory (audience tenant): a slot over a
  // screen of A1, goods on sale of it, a coupon.
  adSlot: async (w) => ({ id: (await salesShop(w)).slotId, entId: w.ent.id }),
  goods: async (w) => ({ id: (await salesShop(w)).goodsId, entId: w.ent.id }),
  coupon: async (w) => ({
    id: await insertCoupon(w.t.db, { entId: w.ent.id, validFrom: salesDay(w.t, 0), validTo: salesDay(w.t, 30) }),
    entId: w.ent.id,
  }),
  // About one advertiser (audience scoped, the object's owner the advertiser): the world's
  // advertiser in A1, assigned to the shared account (/user/allot), so its staff are those who
  // see the advertiser (data scope on A1, or the assignment); the advertiser itself sees its
  // own (ADVERTISER_CALLERS: it, and another advertiser who must not).
  priceContract: async (w) => {
    const adv = await salesAdvertiserOf(w);
    const id = await insertPriceContract(w.t.db, {
      entId: w.ent.id,
      advertiserId: adv.id,
      validFrom: salesDay(w.t, 0),
      validTo: salesDay(w.t, 30),
    });
    return advertiserFacts(w, id, adv.id);
  },
  salesOrder: async (w) => {
    const { order, adv } = await salesOrderOf(w);
    return advertiserFacts(w, order.id, adv.id);
  },
  contract: async (w) => {
    const { order, adv } = await salesOrderOf(w);
    const k = await insertContract(w.t, { entId: w.ent.id, advertiserId: adv.id, kind: 'order', subjectId: order.id });
    return advertiserFacts(w, k.id, adv.id);
  },
  // Programmatic airtime (issue 29): a campaign is about one advertiser (as an order); the
  // enterprise's DSPs and its auction log are its own (audience tenant).
  rtbCampaign: async (w) => {
    const adv = await salesAdvertiserOf(w);
    const c = await insertCampaign(w.t, { entId: w.ent.id, advertiserId: adv.id });
    return advertiserFacts(w, c.id, adv.id);
  },
  rtbDsp: async (w) => ({ id: await insertDsp(w.t.db, w.ent.id), entId: w.ent.id }),
  rtbAuction: async (w) => {
    const shop = await salesShop(w);
    const slotId = await insertRtbSlot(w.t.db, { entId: w.ent.id, deviceIds: [shop.deviceId] });
    const id = await insertAuction(w.t.db, { entId: w.ent.id, slotId, deviceId: shop.deviceId, at: w.t.clock.now() });
    return { id, entId: w.ent.id };
  },
  // The owner's finished exports of the order list and of a settlement (the one export mechanism).
  salesOrderExport: (w) => finishedExport(w, SALES_ORDER_EXPORT_KIND, 'sales-orders.xlsx'),
  salesSettlementExport: (w) => finishedExport(w, SALES_SETTLEMENT_EXPORT_KIND, 'sales-settlement.xlsx'),
  // One-key alarms (issue 30): a region is the enterprise's (audience tenant); an event is
  // seen through its device (a screen of A1, the owner's), as the device is.
  alarmRegion: async (w) => ({ id: await insertAlarmRegion(w.t.db, { entId: w.ent.id }), entId: w.ent.id }),
  alarmEvent: async (w) => {
    const device = await insertAlarmDevice(w.t, w.ent, w.owner.id, { deptId: w.ent.depts.a1 });
    const id = await insertAlarmEvent(w.t.db, { entId: w.ent.id, deviceId: device.id, at: w.t.clock.now() });
    return { id, entId: w.ent.id, deptIds: [w.ent.depts.a1], ownerId: w.owner.id };
  },
  alarmExport: (w) => finishedExport(w, 'alarmEvents', 'alarm-events.xlsx'),
  // Third-party monitoring (issue 30): a plan and its task in A1, the owner's (data scope); the
  // monitors an enterprise granted are its own (audience tenant).
  monitorGrant: async (w) => ({ id: (await insertMonitor(w.t, w.ent.id)).grantId as string, entId: w.ent.id }),
  monitorPlan: async (w) => {
    const { planId } = await monitoringWorld(w.t, w.ent, w.owner.id, w.ent.depts.a1);
    return { id: planId, entId: w.ent.id, deptIds: [w.ent.depts.a1], ownerId: w.owner.id };
  },
  monitorTask: async (w) => {
    const { taskIds } = await monitoringWorld(w.t, w.ent, w.owner.id, w.ent.depts.a1);
    return { id: taskIds[0], entId: w.ent.id, deptIds: [w.ent.depts.a1], ownerId: w.owner.id };
  },
  // Feedback (issue 31): the author's own (audience owner: the owner in A1 wrote it, with a
  // screenshot), and everyone's for the platform operator (audience platform).
  feedback: async (w) => ({
    id: await insertFeedback(w.t, { entId: w.ent.id, authorId: w.owner.id, shots: 1 }),
    entId: w.ent.id,
    ownerId: w.owner.id,
  }),
  // Special resources (issue 31): the platform's resources and every inquiry on them are the
  // platform operator's to manage (audience platform); an advertiser reads only its own
  // inquiries (special.myInquiries, unscoped: inquirer = caller).
  specialResource: async (w) => ({
    id: await insertSpecialResource(w.t, { entId: w.ent.id, state: 'draft', photos: 1 }),
    entId: w.ent.id,
  }),
  specialInquiry: async (w) => ({
    id: await insertSpecialInquiry(w.t, {
      resourceId: await insertSpecialResource(w.t, { entId: w.ent.id }),
      entId: w.ent.id,
      inquirerId: w.owner.id,
    }),
    entId: w.ent.id,
    ownerId: w.owner.id,
  }),
  // Help documents (issue 31) are platform-wide content: their readers' endpoints are
  // unscoped; a draft is the platform operator's alone (audience platform).
  helpDoc: async (w) => ({ id: await insertHelpDoc(w.t, { state: 'draft' }), entId: w.ent.id }),
  // Upgrades (issue 31): packages and rollouts are the enterprise's (audience tenant); a
  // rollout's devices are listed within the caller's data scope.
  upgradePackage: async (w) => ({ id: await insertUpgradePackage(w.t, w.ent.id), entId: w.ent.id }),
  // Device custom fields (issue 31): the enterprise's definitions (audience tenant).
  customField: async (w) => ({ id: await insertCustomField(w.t, w.ent.id), entId: w.ent.id }),
  upgradeRollout: async (w) => ({
    id: await insertUpgradeRollout(w.t, w.ent, w.owner.id, { deptId: w.ent.depts.a1 }),
    entId: w.ent.id,
  }),
};

/** The export kinds of the sales order list and of a settlement (H2's and H3's registerExportSource). */
const SALES_ORDER_EXPORT_KIND = 'salesOrders';
const SALES_SETTLEMENT_EXPORT_KIND = 'salesSettlement';

/** Objects about one advertiser: their callers add the advertiser and another advertiser. */
const ADVERTISER_OWNED = new Set(['priceContract', 'salesOrder', 'contract', 'rtbCampaign']);

/** A screen of A1, a slot over it and goods on sale of the slot (the world's sales inventory). */
async function salesShop(w: World): Promise<{ deviceId: string; slotId: string; goodsId: string }> {
  const [deviceId] = await insertScreens(w.t, w.ent, w.owner.id, 1, {
    deptId: w.ent.depts.a1,
    name: 'Isolated sales screen',
  });
  const slotId = await insertSlot(w.t.db, { entId: w.ent.id, deviceIds: [deviceId], name: 'Isolated slot' });
  const goodsId = await insertGoods(w.t.db, {
    entId: w.ent.id,
    slotIds: [slotId],
    startDate: salesDay(w.t, 0),
    endDate: salesDay(w.t, 30),
    name: 'Isolated goods',
  });
  return { deviceId, slotId, goodsId };
}

/** The world's advertiser, assigned to the shared account (the sales staff who keep it). */
async function salesAdvertiserOf(w: World) {
  const adv = await advertiserOf(w);
  await w.t.db
    .insert(advertiserAssignments)
    .values({ entId: w.ent.id, advertiserAccountId: adv.id, staffAccountId: w.sharedAccount.id })
    .onConflictDoNothing();
  return adv;
}

/** An unpaid order of the world's advertiser for the world's goods. */
async function salesOrderOf(w: World) {
  const adv = await salesAdvertiserOf(w);
  const shop = await salesShop(w);
  const order = await insertSalesOrder(w.t, {
    entId: w.ent.id,
    advertiserId: adv.id,
    slotId: shop.slotId,
    deviceIds: [shop.deviceId],
    startDate: salesDay(w.t, 1),
    endDate: salesDay(w.t, 2),
    goodsId: shop.goodsId,
  });
  return { order, adv };
}

/** Who sees an advertiser's object: as who sees the advertiser (the advertiser fixture's facts), and the advertiser. */
function advertiserFacts(w: World, id: string, advertiserId: string): Facts {
  return {
    id,
    entId: w.ent.id,
    deptIds: [w.ent.depts.a1],
    ownerId: advertiserId,
    sharedAccounts: [w.sharedAccount.id],
  };
}

/** The day of the iotCard fixture's usage. */
const USAGE_DAY = '2026-11-10';

/** Fields an endpoint's request needs beyond its scope (a report's required range). */
const REQUEST_EXTRA: Record<string, Record<string, unknown>> = {
  'flow.usageReport': { from: USAGE_DAY, to: USAGE_DAY },
  'qrcode.report': { groupBy: 'device' },
};

/** A storage pack the market keeps for the world's enterprise. */
async function insertPackItem(w: World): Promise<string> {
  const now = w.t.clock.now();
  const [row] = await w.t.db
    .insert(marketItems)
    .values({
      entId: w.ent.id,
      kind: 'storagePack',
      productId: await insertProduct(w.t, 'storagePack'),
      months: 1,
      storageBytes: 200 * 1024 ** 3,
      startsAt: new Date(now),
      expiresAt: new Date(now + 30 * 86_400_000),
    })
    .returning({ id: marketItems.id });
  return row.id;
}

/**
 * Second objects of a kind, each in a world of its own, for rules a kind's one fixture cannot
 * show: an advertiser's wallet (seen by its advertiser and the enterprise administrator only).
 */
const VARIANTS: Record<string, ((w: World) => Promise<Facts>)[]> = {
  wallet: [
    async (w) => {
      const adv = await advertiserOf(w);
      const { walletId } = await insertWalletWithMovement(w.t.db, {
        entId: w.ent.id,
        advertiserId: adv.id,
        now: new Date(w.t.clock.now()),
      });
      return { id: walletId, entId: w.ent.id, walletAdvertiserId: adv.id };
    },
  ],
};

interface Caller {
  name: string;
  id: string;
  entId: string;
  entKind: 'enterprise' | 'agent' | 'provider';
  deptId: string | null;
  scope: DataScope | 'all';
  permissions: readonly string[];
  login: { id: string; entId: string; loginName: string; password: string };
  isEntAdmin?: boolean;
  /** An advertiser's account (its own wallet only). */
  advertiser?: boolean;
}

type CallerSpec = { name: string; make: (w: World) => Promise<Omit<Caller, 'name'>> };

const member =
  (scope: DataScope, dept: (w: World) => string, permissions: readonly string[] = ALL_PERMISSION_CODES) =>
  async (w: World): Promise<Omit<Caller, 'name'>> => {
    const deptId = dept(w);
    const login = await createUser(w.t.db, w.ent, { dataScope: scope, deptIds: [deptId], permissions });
    return { id: login.id, entId: w.ent.id, entKind: 'enterprise', deptId, scope, permissions, login };
  };

const existing =
  (pick: (w: World) => World['owner'], dept: (w: World) => string) =>
  async (w: World): Promise<Omit<Caller, 'name'>> => {
    const login = pick(w);
    return {
      id: login.id,
      entId: w.ent.id,
      entKind: 'enterprise',
      deptId: dept(w),
      scope: 'self',
      permissions: ALL_PERMISSION_CODES,
      login: { ...login, entId: w.ent.id },
    };
  };

// The object lives in A1, owned by `owner`; it is shared with department C alone (type 2) and
// with one account in C1 (for objects that can be shared).
const CALLERS: readonly CallerSpec[] = [
  {
    name: 'another enterprise (an agent, administrator)',
    make: async (w) => {
      const other = await createEnterprise(w.t.db, { kind: 'agent' });
      const login = await createUser(w.t.db, other, { isEntAdmin: true });
      const perms = ALL_PERMISSION_CODES;
      return {
        id: login.id,
        entId: other.id,
        entKind: 'agent',
        deptId: other.depts.root,
        scope: 'all',
        permissions: perms,
        login,
        isEntAdmin: true,
      };
    },
  },
  { name: 'sibling department B (dept and below)', make: member('dept_and_below', (w) => w.ent.depts.b) },
  { name: 'self scope in A1 (not the owner)', make: member('self', (w) => w.ent.depts.a1) },
  { name: 'dept only in A (parent)', make: member('dept_only', (w) => w.ent.depts.a) },
  { name: 'dept only in A1', make: member('dept_only', (w) => w.ent.depts.a1) },
  { name: 'dept and below in A', make: member('dept_and_below', (w) => w.ent.depts.a) },
  { name: 'dept and below in A1', make: member('dept_and_below', (w) => w.ent.depts.a1) },
  { name: 'dept and below in root', make: member('dept_and_below', (w) => w.ent.depts.root) },
  {
    name: 'enterprise administrator (in B)',
    make: async (w) => {
      const login = await createUser(w.t.db, w.ent, { isEntAdmin: true, deptIds: [w.ent.depts.b] });
      const perms = ALL_PERMISSION_CODES;
      return {
        id: login.id,
        entId: w.ent.id,
        entKind: 'enterprise',
        deptId: w.ent.depts.b,
        scope: 'all',
        permissions: perms,
        login,
        isEntAdmin: true,
      };
    },
  },
  {
    name: 'owner (self scope)',
    make: existing(
      (w) => w.owner,
      (w) => w.ent.depts.a1,
    ),
  },
  { name: 'shared department C alone (self scope)', make: member('self', (w) => w.c) },
  { name: 'below shared department C (self scope)', make: member('self', (w) => w.c1) },
  {
    name: 'shared account in C1 (self scope)',
    make: existing(
      (w) => w.sharedAccount,
      (w) => w.c1,
    ),
  },
  {
    name: 'without any permission (dept and below in root)',
    make: member('dept_and_below', (w) => w.ent.depts.root, []),
  },
];

/**
 * Money's callers besides CALLERS (objects read by an audience 'wallet' endpoint): the
 * platform operator with and without the finance permission, and an advertiser of the
 * object's enterprise (its own wallet only).
 */
const WALLET_CALLERS: readonly CallerSpec[] = [
  {
    name: 'the platform operator (finance)',
    make: async (w) => {
      const provider = await createEnterprise(w.t.db, { kind: 'provider' });
      const permissions = [Perm.myFinance, Perm.financeManage];
      const login = await createUser(w.t.db, provider, { permissions, dataScope: 'dept_and_below' });
      return {
        id: login.id,
        entId: provider.id,
        entKind: 'provider',
        deptId: provider.depts.root,
        scope: 'dept_and_below',
        permissions,
        login,
      };
    },
  },
  {
    name: 'a platform account without finance (every other permission)',
    make: async (w) => {
      const provider = await createEnterprise(w.t.db, { kind: 'provider' });
      const permissions = ALL_PERMISSION_CODES.filter((code) => code !== Perm.financeManage);
      const login = await createUser(w.t.db, provider, { permissions, isEntAdmin: true });
      return {
        id: login.id,
        entId: provider.id,
        entKind: 'provider',
        deptId: provider.depts.root,
        scope: 'all',
        permissions,
        login,
        isEntAdmin: true,
      };
    },
  },
  {
    name: "an advertiser of the object's enterprise",
    make: async (w) => {
      const adv = await advertiserOf(w);
      return {
        id: adv.id,
        entId: w.ent.id,
        entKind: 'enterprise',
        deptId: w.ent.depts.a1,
        scope: 'self',
        permissions: ADVERTISER_ROLE_CODES,
        login: { ...adv, entId: w.ent.id },
        advertiser: true,
      };
    },
  },
];

/**
 * Sales' callers besides CALLERS (objects about one advertiser: orders, price contracts,
 * contracts): the object's advertiser (its own) and another advertiser of the enterprise in
 * the same department (not its).
 */
const ADVERTISER_CALLERS: readonly CallerSpec[] = [
  {
    name: "the object's advertiser",
    make: async (w) => {
      const adv = await advertiserOf(w);
      return {
        id: adv.id,
        entId: w.ent.id,
        entKind: 'enterprise',
        deptId: w.ent.depts.a1,
        scope: 'self',
        permissions: ADVERTISER_ROLE_CODES,
        login: { ...adv, entId: w.ent.id },
        advertiser: true,
      };
    },
  },
  {
    name: 'another advertiser in A1',
    make: async (w) => {
      const loginName = uniqueName('adv');
      const id = await createAdvertiser(w.t.db, {
        entId: w.ent.id,
        deptId: w.ent.depts.a1,
        createdBy: null,
        loginName,
        password: TEST_PASSWORD,
        realName: 'Another advertiser',
      });
      return {
        id,
        entId: w.ent.id,
        entKind: 'enterprise',
        deptId: w.ent.depts.a1,
        scope: 'self',
        permissions: ADVERTISER_ROLE_CODES,
        login: { id, loginName, password: TEST_PASSWORD, entId: w.ent.id },
        advertiser: true,
      };
    },
  },
];

/** The callers of an object kind: money's kinds add WALLET_CALLERS, an advertiser's objects ADVERTISER_CALLERS. */
const callersOf = (object: string): readonly CallerSpec[] =>
  scoped.some((def) => def.scope?.object === object && def.scope.audience === 'wallet')
    ? [...CALLERS, ...WALLET_CALLERS]
    : ADVERTISER_OWNED.has(object)
      ? [...CALLERS, ...ADVERTISER_CALLERS]
      : CALLERS;

/** Ids of a department and its ancestors. */
function lineage(w: World, dept: string | null): string[] {
  const ids: string[] = [];
  for (let d = dept; d; d = w.parents.get(d) ?? null) ids.push(d);
  return ids;
}

/** The rule each audience stands for (protocol's Audience), written independently of the server. */
function sees(w: World, c: Caller, o: Facts, audience: Audience): boolean {
  switch (audience) {
    case 'platform':
      return c.entKind === 'provider';
    case 'managed':
      return c.entKind === 'provider' || c.entId === o.managerEntId;
    case 'owner':
      return c.entId === o.entId && c.id === o.ownerId;
    case 'tenant':
      return c.entId === o.entId;
    case 'wallet': {
      // walletScope.ts's rule, restated: the platform's finance sees every wallet; an
      // advertiser's wallet is its advertiser's and the enterprise administrator's; an
      // enterprise's wallet is everyone's of the enterprise but its advertisers'.
      if (c.entKind === 'provider' && hasPermission(c.permissions, Perm.financeManage)) return true;
      if (o.walletAdvertiserId) return c.id === o.walletAdvertiserId || (c.entId === o.entId && Boolean(c.isEntAdmin));
      return c.entId === o.entId && !c.advertiser;
    }
    case 'scoped': {
      if (c.entId !== o.entId) return false;
      if (c.scope === 'all' || c.id === o.ownerId || o.sharedAccounts?.includes(c.id)) return true;
      const depts = o.deptIds ?? [];
      if (c.scope === 'dept_only' && c.deptId && depts.includes(c.deptId)) return true;
      if (c.scope === 'dept_and_below' && c.deptId && depts.some((d) => lineage(w, d).includes(c.deptId ?? ''))) {
        return true;
      }
      const mine = lineage(w, c.deptId);
      return (o.sharedDepts ?? []).some((s) => (s.type === 2 ? s.dept === c.deptId : mine.includes(s.dept)));
    }
  }
}

type Expect = 'visible' | 'hidden' | 'denied';

function expected(def: EndpointDef, w: World, c: Caller, o: Facts): Expect {
  if (!hasPermission(c.permissions, def.permission)) return 'denied';
  if (def.scope?.kind === 'count' && !hasPermission(c.permissions, def.scope.permission)) return 'denied';
  const audience = def.scope?.audience ?? 'scoped';
  const visible = sees(w, c, o, audience) && (!o.parent || !def.scope?.parentField || sees(w, c, o.parent, audience));
  return visible ? 'visible' : 'hidden';
}

/** The value at a dotted path of an answer ('figures.templates'). */
function pathOf(value: unknown, path = ''): unknown {
  return path
    .split('.')
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

/** The request: fixed fields, the object (detail) or its parent, and the largest page the schema takes. */
function request(def: EndpointDef, o: Facts): Record<string, unknown> {
  const scope = def.scope;
  const data: Record<string, unknown> = { ...(scope?.with ?? {}), ...(REQUEST_EXTRA[def.name] ?? {}) };
  if (scope?.kind === 'detail') data[scope.idField ?? 'id'] = o.id;
  if (scope?.parentField && o.parent) data[scope.parentField] = o.parent.id;
  for (const size of [100, 50]) {
    const paged = { ...data, page: 1, size };
    if (def.request.safeParse(paged).success) return paged;
  }
  return data;
}

const reads = ENDPOINT_LIST.filter((def) => def.auth === 'session' && !def.mutation);
const scoped = ENDPOINT_LIST.filter((def) => def.scope);
const objects = [...new Set(scoped.map((def) => def.scope?.object ?? ''))];

describe.each(BACKENDS)('isolation matrix on %s', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(() => t.close());

  it('covers every session read of the catalogue: scoped with a fixture, or unscoped with a reason', () => {
    const undeclared = reads.filter((def) => !def.scope && !def.unscoped).map((def) => def.name);
    expect(undeclared).toEqual([]);
    expect(objects.filter((object) => !FIXTURES[object])).toEqual([]);
  });

  it('lets no caller see what their enterprise, data scope, sharing and permissions keep from them', async () => {
    const findings: string[] = [];
    let leaks = 0;
    let calls = 0;
    let callerCount = 0;
    let expectedCalls = 0;
    for (const [object, fixture] of objects.flatMap((o) =>
      [FIXTURES[o], ...(VARIANTS[o] ?? [])].map((f) => [o, f] as const),
    )) {
      const w = await makeWorld(t);
      const facts = await fixture(w);
      const callers: Caller[] = [];
      for (const spec of callersOf(object)) callers.push({ name: spec.name, ...(await spec.make(w)) });
      callerCount = Math.max(callerCount, callers.length);
      expectedCalls += callers.length * scoped.filter((d) => d.scope?.object === object).length;
      for (const caller of callers) {
        const client = await t.loginAs(caller.login);
        for (const def of scoped.filter((d) => d.scope?.object === object)) {
          const res = await client.call(def, request(def, facts));
          calls++;
          const code = def.download && res.status === 200 && !res.envelope ? 0 : (res.envelope?.code ?? -1);
          const marker = facts.marker ?? facts.id;
          const want = expected(def, w, caller, facts);
          // A count: the figure is above 0 for whoever sees the object (the world has no other),
          // and a caller without the figure's permission gets no figure at all.
          const figure =
            def.scope?.kind === 'count' && code === 0 ? pathOf(res.envelope.payload, def.scope.figure) : null;
          if (def.scope?.kind === 'count' && want === 'denied' && code === 0 && figure !== undefined) {
            findings.push(`${def.name} (${object}): ${caller.name} gets a figure without its permission`);
            continue;
          }
          const seen =
            code === 0 &&
            (def.scope?.kind === 'count'
              ? Number(figure) > 0
              : def.scope?.kind === 'detail' || JSON.stringify(res.envelope.payload).includes(marker));
          const where = `${def.name} (${object}): ${caller.name}`;
          if (seen && want !== 'visible') {
            leaks++;
            findings.push(`LEAK ${where} sees ${marker}`);
          } else if (!seen && want === 'visible') {
            findings.push(`MISS ${where} does not see ${marker} (code ${code})`);
          } else if (want === 'denied' && code !== ErrorCode.NO_PERMISSION && def.scope?.kind !== 'count') {
            findings.push(`${where} answered ${code}, not NO_PERMISSION`);
          } else if (want === 'hidden' && ![0, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION].includes(code)) {
            findings.push(`${where} answered ${code}`);
          }
        }
      }
    }
    console.log(
      `isolation (${backend}): ${scoped.length} endpoints x up to ${callerCount} callers (${objects.length} object kinds), ${calls} calls, ${leaks} leaks`,
    );
    expect(findings).toEqual([]);
    expect(leaks).toBe(0);
    expect(calls).toBe(expectedCalls);
  }, 300_000); // the matrix grows with every scoped endpoint (14 callers each): its own time limit
});

/** A finished export of the world's owner (any kind of the one export mechanism), its file stored. */
async function finishedExport(w: World, kind: string, fileName: string): Promise<Facts> {
  const [row] = await w.t.db
    .insert(operationLogExports)
    .values({ entId: w.ent.id, accountId: w.owner.id, kind, status: 'done', fileName })
    .returning({ id: operationLogExports.id });
  await w.t.services.files.storage.put(exportKey(w.ent.id, row.id), Readable.from([Buffer.from('isolated export')]), {
    contentType: 'application/octet-stream',
  });
  return { id: row.id, entId: w.ent.id, ownerId: w.owner.id };
}

/** A fresh enterprise: root -> a -> a1, root -> b, root -> c -> c1, an owner in A1 and a shared account in C1. */
async function makeWorld(t: TestApp): Promise<World> {
  const ent = await createEnterprise(t.db);
  const c = await insertDepartment(t.db, { entId: ent.id, parentId: ent.depts.root, name: 'Dept C' });
  const c1 = await insertDepartment(t.db, { entId: ent.id, parentId: c.id, name: 'Dept C1' });
  const parents = new Map<string, string | null>([
    [ent.depts.root, null],
    [ent.depts.a, ent.depts.root],
    [ent.depts.a1, ent.depts.a],
    [ent.depts.b, ent.depts.root],
    [c.id, ent.depts.root],
    [c1.id, c.id],
  ]);
  const owner = await createUser(t.db, ent, { dataScope: 'self', deptIds: [ent.depts.a1] });
  const sharedAccount = await createUser(t.db, ent, { dataScope: 'self', deptIds: [c1.id] });
  return { t, ent, c: c.id, c1: c1.id, parents, owner, sharedAccount };
}
