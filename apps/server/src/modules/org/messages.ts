import { ErrorCode } from '@marquee/protocol';
import { AppError, type LocalizedText } from '../../protocol/appError.js';

/**
 * The organisation's refusals, each with a message that says why (the generic CONFLICT
 * text would not tell an administrator what to do). Shared by the organisation's modules
 * (enterprise, accounts, roles, dept, advertisers), so kept beneath them all.
 */
const text = (zh: string, en: string, ja: string): LocalizedText => ({ 'zh-CN': zh, 'en-US': en, ja });

export const OrgText = {
  loginNameTaken: text('登录账号已存在', 'This login account already exists', 'このログインアカウントは既に存在します'),
  creditCodeTaken: text(
    '统一社会信用代码已被其他企业使用',
    'Another enterprise already uses this social credit code',
    'この統一社会信用コードは他の企業で使用されています',
  ),
  notYourself: text(
    '不能对自己执行此操作',
    'You cannot do this to your own account',
    '自分のアカウントにはこの操作を実行できません',
  ),
  lastAdmin: text(
    '不能删除企业的最后一个管理员',
    "You cannot delete the enterprise's last administrator",
    '企業の最後の管理者は削除できません',
  ),
  ownsData: text(
    '该账号仍拥有数据，无法删除，请改为停用',
    'This account still owns data and cannot be deleted; pause it instead',
    'このアカウントはまだデータを所有しているため削除できません。代わりに停止してください',
  ),
  adminRoleDelete: text(
    '内置的企业管理员角色不能删除',
    'The built-in enterprise administrator role cannot be deleted',
    '組み込みの企業管理者ロールは削除できません',
  ),
  adminRoleReduce: text(
    '内置的企业管理员角色不能减少权限或数据范围',
    'The built-in enterprise administrator role cannot lose permissions or data scope',
    '組み込みの企業管理者ロールの権限やデータ範囲は減らせません',
  ),
  roleNameTaken: text('角色名称已存在', 'A role with this name already exists', '同じ名前のロールが既に存在します'),
  grantBeyondOwn: text(
    '不能授予自己没有的权限',
    'You cannot grant permissions you do not hold yourself',
    '自分が持っていない権限は付与できません',
  ),
  unknownCode: text(
    '包含未知的权限代码',
    'The permission list contains an unknown code',
    '不明な権限コードが含まれています',
  ),
  deptHasChildren: text(
    '该部门下还有子部门，请先删除或移走子部门',
    'This department still has sub-departments; delete or move them first',
    'この部署にはまだ下位部署があります。先に削除または移動してください',
  ),
  deptHasMembers: text(
    '该部门下还有成员账号，请先将账号移出该部门',
    'This department still has member accounts; move them to another department first',
    'この部署にはまだメンバーのアカウントがあります。先に別の部署へ移動してください',
  ),
  deptInUse: text(
    '该部门仍被其他数据使用，无法删除',
    'Other data still belongs to this department, so it cannot be deleted',
    'この部署はまだ他のデータで使用されているため削除できません',
  ),
  deptIntoOwnSubtree: text(
    '不能将部门移动到它自己或它的下级部门下',
    'A department cannot be moved under itself or one of its sub-departments',
    '部署を自分自身またはその下位部署の下に移動することはできません',
  ),
  deptNameTaken: text(
    '同级部门中已有同名部门',
    'A department with this name already exists at this level',
    '同じ階層に同じ名前の部署が既に存在します',
  ),
  rootDeptAdminOnly: text(
    '只有企业管理员可以管理顶级部门',
    'Only the enterprise administrator can manage top-level departments',
    'トップレベルの部署を管理できるのは企業管理者のみです',
  ),
  ownEnterprise: text(
    '不能停用自己所在的企业',
    'You cannot pause your own enterprise',
    '自分の企業を停止することはできません',
  ),
  operatorOnly: text(
    '只有平台运营方或代理商可以管理企业',
    'Only the platform operator or an agent can manage enterprises',
    '企業を管理できるのはプラットフォーム運営者または代理店のみです',
  ),
  invitationInvalid: text('邀请链接无效', 'This invitation link is not valid', 'この招待リンクは無効です'),
  invitationExpired: text(
    '邀请链接已过期，请联系管理员重新生成',
    'This invitation link has expired; ask your administrator for a new one',
    'この招待リンクは期限切れです。管理者に新しいリンクを依頼してください',
  ),
} as const;

export function conflict(message: LocalizedText): AppError {
  return new AppError(ErrorCode.CONFLICT, message);
}

export function notFound(message?: LocalizedText): AppError {
  return new AppError(ErrorCode.NOT_FOUND, message);
}

export function noPermission(message?: LocalizedText): AppError {
  return new AppError(ErrorCode.NO_PERMISSION, message);
}

/** PostgreSQL's foreign-key violation (the same code on PGlite). */
export function isForeignKeyViolation(error: unknown): boolean {
  let e: unknown = error;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    if ((e as { code?: unknown }).code === '23503') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
