import { buildMenu, hasPermission, type UserInfo } from '@marquee/protocol';
import type { Principal } from '../../auth/principal.js';

const memo = new WeakMap<Principal, UserInfo>();

/** The console's user info of a principal (cached with it: the menu is built once). */
export function toUserInfo(principal: Principal): UserInfo {
  let info = memo.get(principal);
  if (!info) {
    info = {
      id: principal.accountId,
      userId: String(principal.userNo),
      entId: principal.entId,
      entName: principal.entName,
      homeEntId: principal.homeEntId,
      userName: principal.realName || principal.loginName,
      loginName: principal.loginName,
      deptId: principal.deptId ?? '',
      deptName: principal.deptName,
      welcomeSpeech: principal.welcomeSpeech,
      logo: principal.logo,
      isYXF: principal.entKind === 'provider',
      openWxLogin: principal.openWxLogin ? 'Y' : 'N',
      thirdMonitorUser: principal.thirdMonitor,
      updatePwd: principal.updatePwd,
      permissionList: [...principal.permissionList],
      folderMenuList: buildMenu((code) => hasPermission(principal.permissions, code)),
    };
    memo.set(principal, info);
  }
  return info;
}
