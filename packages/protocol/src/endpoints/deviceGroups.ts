import { z } from 'zod';
import { ErrorCode } from '../errors.js';
import { Perm } from '../permissions.js';
import { listPageSize } from '../validation.js';
import { empty, endpoint, ok } from './common.js';
import { allocateEntrySchema } from './sharing.js';

/**
 * Device groups, tags and tag categories (issue 9 section 2, spec sections 3 and 6), and the
 * shared way an endpoint names the devices it acts on (deviceTargetsSchema). Groups are
 * data-scoped by department and owner like devices and shareable (ref-type '2'): a group
 * shared with a department or account shares its devices (inherited, ref-type '1').
 * A device is in at most one group. Tags and their categories are the enterprise's
 * vocabulary (everyone with the tags permission sees them); the devices a tag or group lists
 * or counts are always the caller's visible ones. Bulk device sharing (allocate / recycle
 * by tag, group, department or an imported sheet of device numbers) writes the same
 * allocations as permission.refresh.
 */

const idSchema = z.string().min(1).max(64);

/** Most devices one call names by id, and most groups / tags. */
export const MAX_TARGET_DEVICE_IDS = 500;
export const MAX_TARGET_CONTAINERS = 100;
/** Most devices a group or tag page sets as its members in one save. */
export const MAX_MEMBER_IDS = 5000;
/** Most devices a set of targets may resolve to (groups and tags included). */
export const MAX_RESOLVED_DEVICES = 10_000;

/**
 * The devices an endpoint acts on (commands, strategies, screenshots, groups, sharing):
 * device ids, and/or groups and tags that resolve to the caller's visible devices in them.
 * At least one id in all. A group or tag the caller cannot see answers NOT_FOUND.
 */
export const deviceTargetsSchema = z
  .object({
    deviceIds: z.array(idSchema).max(MAX_TARGET_DEVICE_IDS).optional(),
    groupIds: z.array(idSchema).max(MAX_TARGET_CONTAINERS).optional(),
    tagIds: z.array(idSchema).max(MAX_TARGET_CONTAINERS).optional(),
  })
  .refine((v) => (v.deviceIds?.length ?? 0) + (v.groupIds?.length ?? 0) + (v.tagIds?.length ?? 0) > 0, {
    message: 'validation.required',
    path: ['deviceIds'],
  });
export type DeviceTargetsInput = z.input<typeof deviceTargetsSchema>;

/** Name rules: not empty, at most N characters (unique within the enterprise: CONFLICT). */
export const DEVICE_GROUP_NAME_MAX = 30;
export const TAG_NAME_MAX = 20;
export const TAG_CATEGORY_NAME_MAX = 20;
export const DEVICE_GROUP_REMARK_MAX = 200;
export const deviceGroupNameSchema = z.string().trim().min(1, 'validation.required').max(DEVICE_GROUP_NAME_MAX);
export const tagNameSchema = z.string().trim().min(1, 'validation.required').max(TAG_NAME_MAX);
export const tagCategoryNameSchema = z.string().trim().min(1, 'validation.required').max(TAG_CATEGORY_NAME_MAX);

const pageSize = listPageSize();
const page = z.number().int().min(1).default(1);

/** A device as the group and tag pages list it. */
export const memberDeviceSchema = z.object({ id: z.string(), name: z.string(), number: z.string().nullable() });
export type MemberDevice = z.infer<typeof memberDeviceSchema>;

export const deviceGroupRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  remark: z.string(),
  deptId: z.string().nullable(),
  deptName: z.string(),
  ownerName: z.string(),
  /** The caller's visible devices in the group. */
  deviceCount: z.number(),
  /** The caller may edit, delete and share it (owner, administrator, department-and-below scope). */
  hasPermission: z.boolean(),
  updatedAt: z.string(),
});
export type DeviceGroupRow = z.infer<typeof deviceGroupRowSchema>;

export const tagCategoryRowSchema = z.object({ id: z.string(), name: z.string(), tagCount: z.number() });
export type TagCategoryRow = z.infer<typeof tagCategoryRowSchema>;

export const tagRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  categoryId: z.string(),
  categoryName: z.string(),
  /** The caller's visible devices carrying the tag. */
  deviceCount: z.number(),
  updatedAt: z.string(),
});
export type TagRow = z.infer<typeof tagRowSchema>;

const memberAction = z.enum(['add', 'remove']);
const shareAction = z.enum(['allocate', 'recycle']);
/** Bulk sharing: which devices, by what. */
export const DEVICE_SHARE_BY = ['tag', 'group', 'department', 'devices'] as const;
/** The largest sheet of device numbers an import takes (base64 characters of the .xlsx). */
export const DEVICE_SHARE_IMPORT_MAX = 900_000;

export const deviceGroupEndpoints = {
  deviceGroupList: endpoint({
    name: 'deviceGroup.list',
    path: '/api/device/group/list.shtm',
    auth: 'session',
    permission: Perm.deviceGroup,
    scope: { object: 'deviceGroup', kind: 'list' },
    request: z.object({ page, size: pageSize, name: z.string().trim().max(64).optional() }).strict(),
    response: z.object({ total: z.number(), data: z.array(deviceGroupRowSchema) }),
  }),
  deviceGroupOptions: endpoint({
    name: 'deviceGroup.options',
    path: '/api/device/group/options.shtm',
    auth: 'session',
    permission: Perm.device,
    scope: { object: 'deviceGroup', kind: 'list' },
    request: empty,
    response: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
  deviceGroupDetail: endpoint({
    name: 'deviceGroup.detail',
    path: '/api/device/group/detail.shtm',
    auth: 'session',
    permission: Perm.deviceGroup,
    errors: [ErrorCode.NOT_FOUND],
    scope: { object: 'deviceGroup', kind: 'detail' },
    request: z.object({ id: idSchema }).strict(),
    response: deviceGroupRowSchema.extend({ devices: z.array(memberDeviceSchema) }),
  }),
  deviceGroupCreate: endpoint({
    name: 'deviceGroup.create',
    path: '/api/device/group/create.shtm',
    auth: 'session',
    permission: Perm.deviceGroup,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    request: z
      .object({
        name: deviceGroupNameSchema,
        remark: z.string().trim().max(DEVICE_GROUP_REMARK_MAX).default(''),
        /** The department the group belongs to (within the caller's scope); default the caller's. */
        deptId: idSchema.optional(),
        /** Devices to put in it (moved out of any other group). */
        deviceIds: z.array(idSchema).max(MAX_MEMBER_IDS).optional(),
      })
      .strict(),
    response: z.object({ id: z.string() }),
  }),
  deviceGroupUpdate: endpoint({
    name: 'deviceGroup.update',
    path: '/api/device/group/update.shtm',
    auth: 'session',
    permission: Perm.deviceGroup,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    request: z
      .object({
        id: idSchema,
        name: deviceGroupNameSchema,
        remark: z.string().trim().max(DEVICE_GROUP_REMARK_MAX).default(''),
        /** When given, the group's visible devices become exactly these. */
        deviceIds: z.array(idSchema).max(MAX_MEMBER_IDS).optional(),
      })
      .strict(),
    response: ok,
  }),
  deviceGroupDelete: endpoint({
    name: 'deviceGroup.delete',
    path: '/api/device/group/delete.shtm',
    auth: 'session',
    permission: Perm.deviceGroup,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    request: z.object({ ids: z.array(idSchema).min(1).max(100) }).strict(),
    response: ok,
  }),
  deviceGroupAssign: endpoint({
    name: 'deviceGroup.assign',
    path: '/api/device/group/assign.shtm',
    auth: 'session',
    permission: Perm.deviceGroup,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    request: z
      .object({ id: idSchema, action: memberAction, deviceIds: z.array(idSchema).min(1).max(MAX_TARGET_DEVICE_IDS) })
      .strict(),
    response: z.object({ devices: z.number() }),
  }),

  tagCategoryList: endpoint({
    name: 'tagCategory.list',
    path: '/api/device/tagCategory/list.shtm',
    auth: 'session',
    permission: Perm.deviceTags,
    scope: { object: 'tagCategory', kind: 'list', audience: 'tenant' },
    request: empty,
    response: z.array(tagCategoryRowSchema),
  }),
  tagCategoryCreate: endpoint({
    name: 'tagCategory.create',
    path: '/api/device/tagCategory/create.shtm',
    auth: 'session',
    permission: Perm.deviceTags,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT],
    request: z.object({ name: tagCategoryNameSchema }).strict(),
    response: z.object({ id: z.string() }),
  }),
  tagCategoryUpdate: endpoint({
    name: 'tagCategory.update',
    path: '/api/device/tagCategory/update.shtm',
    auth: 'session',
    permission: Perm.deviceTags,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    request: z.object({ id: idSchema, name: tagCategoryNameSchema }).strict(),
    response: ok,
  }),
  tagCategoryDelete: endpoint({
    name: 'tagCategory.delete',
    path: '/api/device/tagCategory/delete.shtm',
    auth: 'session',
    permission: Perm.deviceTags,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    request: z.object({ id: idSchema }).strict(),
    response: ok,
  }),

  deviceTagList: endpoint({
    name: 'deviceTag.list',
    path: '/api/device/tag/list.shtm',
    auth: 'session',
    permission: Perm.deviceTags,
    scope: { object: 'tag', kind: 'list', audience: 'tenant' },
    request: z
      .object({
        page,
        size: pageSize,
        name: z.string().trim().max(64).optional(),
        categoryId: idSchema.optional(),
      })
      .strict(),
    response: z.object({ total: z.number(), data: z.array(tagRowSchema) }),
  }),
  deviceTagOptions: endpoint({
    name: 'deviceTag.options',
    path: '/api/device/tag/options.shtm',
    auth: 'session',
    permission: Perm.device,
    scope: { object: 'tag', kind: 'list', audience: 'tenant' },
    request: empty,
    response: z.array(z.object({ id: z.string(), name: z.string(), categoryId: z.string(), categoryName: z.string() })),
  }),
  deviceTagDetail: endpoint({
    name: 'deviceTag.detail',
    path: '/api/device/tag/detail.shtm',
    auth: 'session',
    permission: Perm.deviceTags,
    errors: [ErrorCode.NOT_FOUND],
    scope: { object: 'tag', kind: 'detail', audience: 'tenant' },
    request: z.object({ id: idSchema }).strict(),
    response: tagRowSchema.extend({ devices: z.array(memberDeviceSchema) }),
  }),
  deviceTagCreate: endpoint({
    name: 'deviceTag.create',
    path: '/api/device/tag/create.shtm',
    auth: 'session',
    permission: Perm.deviceTags,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    request: z
      .object({
        name: tagNameSchema,
        categoryId: idSchema,
        deviceIds: z.array(idSchema).max(MAX_MEMBER_IDS).optional(),
      })
      .strict(),
    response: z.object({ id: z.string() }),
  }),
  deviceTagUpdate: endpoint({
    name: 'deviceTag.update',
    path: '/api/device/tag/update.shtm',
    auth: 'session',
    permission: Perm.deviceTags,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.CONFLICT, ErrorCode.NOT_FOUND],
    request: z
      .object({
        id: idSchema,
        name: tagNameSchema,
        categoryId: idSchema,
        /** When given, the tag's visible devices become exactly these. */
        deviceIds: z.array(idSchema).max(MAX_MEMBER_IDS).optional(),
      })
      .strict(),
    response: ok,
  }),
  deviceTagDelete: endpoint({
    name: 'deviceTag.delete',
    path: '/api/device/tag/delete.shtm',
    auth: 'session',
    permission: Perm.deviceTags,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    request: z.object({ ids: z.array(idSchema).min(1).max(100) }).strict(),
    response: ok,
  }),
  deviceTagAssign: endpoint({
    name: 'deviceTag.assign',
    path: '/api/device/tag/assign.shtm',
    auth: 'session',
    permission: Perm.deviceTags,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    request: z
      .object({
        tagIds: z.array(idSchema).min(1).max(MAX_TARGET_CONTAINERS),
        action: memberAction,
        deviceIds: z.array(idSchema).min(1).max(MAX_TARGET_DEVICE_IDS),
      })
      .strict(),
    response: z.object({ devices: z.number() }),
  }),

  deviceShareApply: endpoint({
    name: 'deviceShare.apply',
    path: '/api/device/share/apply.shtm',
    auth: 'session',
    permission: Perm.dataAllocation,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND, ErrorCode.NO_PERMISSION],
    request: z
      .object({
        /** Which devices: those carrying the tags, in the groups, of the departments (and below), or by id. */
        by: z.enum(DEVICE_SHARE_BY),
        ids: z.array(idSchema).min(1).max(MAX_TARGET_DEVICE_IDS),
        /** allocate: add the targets to each device's own allocations; recycle: remove them. */
        action: shareAction,
        allocateInfos: z.array(allocateEntrySchema).min(1).max(100),
      })
      .strict(),
    /** skipped: chosen devices the caller sees but may not share (shared with it). */
    response: z.object({ devices: z.number(), skipped: z.number() }),
  }),
  deviceShareImport: endpoint({
    name: 'deviceShare.import',
    path: '/api/device/share/import.shtm',
    auth: 'session',
    permission: Perm.dataAllocation,
    mutation: true,
    notForMonitor: true,
    errors: [ErrorCode.NOT_FOUND],
    request: z
      .object({
        /** The .xlsx (the template's layout: device numbers in the first column), base64. */
        file: z.string().min(1).max(DEVICE_SHARE_IMPORT_MAX),
        action: shareAction,
        allocateInfos: z.array(allocateEntrySchema).min(1).max(100),
      })
      .strict(),
    // Any row error: nothing is written and every bad row is answered.
    response: z.object({
      devices: z.number(),
      errors: z.array(z.object({ row: z.number(), number: z.string(), reason: z.string() })),
    }),
  }),
  deviceShareTemplate: endpoint({
    name: 'deviceShare.template',
    path: '/api/device/share/template.shtm',
    auth: 'session',
    permission: Perm.dataAllocation,
    download: true,
    unscoped: 'a blank sheet (the import template): no enterprise data',
    request: empty,
    response: z.unknown(),
  }),
} as const;
