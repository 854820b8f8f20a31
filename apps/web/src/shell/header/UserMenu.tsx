import { CheckOutlined, DownOutlined, LoadingOutlined, LogoutOutlined, SkinOutlined } from '@ant-design/icons';
import { LOCALES, type Locale, Perm } from '@marquee/protocol';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { call } from '../../api/client';
import { switchLocale } from '../../i18n';
import { useSession } from '../../session/session';
import { useCan } from '../../session/useCan';
import { DEPT_SWITCH_RELOAD_MS, reloadPage } from '../reload';
import { useDeptUsers, useEnterpriseOptions } from './queries';

const Blank = () => <span className="mq-menu-blank" />;

/**
 * The user dropdown (spec section 2 "Header", section 4 "Department switch" and "Language
 * switch"): enterprises for an account that acts for several ('change enterprise', spec
 * section 7; shown when there is more than one), departments (the current one marked and
 * inert; another one switches, updates the user info and reloads after 500 ms; a failure
 * closes the dropdown; an enterprise switch does the same), languages (the
 * current one marked; a switch stores the cookie and reloads), the skin page and logout.
 */
export default function UserMenu() {
  const { t, i18n } = useTranslation('shell');
  const navigate = useNavigate();
  const userName = useSession((s) => s.userName);
  const loginName = useSession((s) => s.loginName);
  const deptId = useSession((s) => s.deptId);
  const deptName = useSession((s) => s.deptName);
  const entId = useSession((s) => s.entId);
  const entName = useSession((s) => s.entName);
  const homeEntId = useSession((s) => s.homeEntId);
  const locales = useSession((s) => s.locales);
  const can = useCan();
  const canSwitch = can(Perm.deptSwitch);
  const { data: depts } = useDeptUsers(canSwitch);
  const { data: enterprises } = useEnterpriseOptions(can(Perm.userCompanyManage));
  const entOptions = enterprises && enterprises.length > 1 ? enterprises : [];
  const [open, setOpen] = useState(false);
  const [switching, setSwitching] = useState<string | null>(null);

  const currentLocale = (i18n.resolvedLanguage ?? i18n.language) as Locale;
  const languages = (locales?.length ? locales : LOCALES).filter((l) => (LOCALES as readonly string[]).includes(l));

  const deptOptions = (() => {
    const list = canSwitch ? (depts ?? []) : [];
    const hasCurrent = list.some((d) => d.value === deptId);
    return hasCurrent || !deptId ? list : [{ value: deptId, label: deptName }, ...list];
  })();

  async function switchTo(kind: 'dept' | 'ent', id: string) {
    if (id === (kind === 'dept' ? deptId : entId) || switching) return;
    setSwitching(id);
    try {
      const info =
        kind === 'dept' ? await call('deptChange', { deptId: id }) : await call('changeEnterprise', { entId: id });
      useSession.getState().setUserInfo(info);
      setTimeout(reloadPage, DEPT_SWITCH_RELOAD_MS);
    } catch {
      // The client has shown the error; spec section 8: a failed switch closes the dropdown.
      setSwitching(null);
      setOpen(false);
    }
  }

  const entGroup: MenuProps['items'] = entOptions.length
    ? [
        {
          type: 'group',
          key: 'ent',
          label: t('user.enterprise'),
          children: entOptions.map((e) => ({
            key: `ent:${e.value}`,
            label: e.value === homeEntId ? t('user.enterprise.own', { name: e.label }) : e.label,
            icon: switching === e.value ? <LoadingOutlined /> : e.value === entId ? <CheckOutlined /> : <Blank />,
            className: e.value === entId ? 'mq-menu-current' : undefined,
            'data-testid': `ent-${e.value}`,
            disabled: switching !== null && switching !== e.value,
          })),
        },
        { type: 'divider' },
      ]
    : [];

  const items: MenuProps['items'] = [
    ...entGroup,
    {
      type: 'group',
      key: 'dept',
      label: t('user.department'),
      children: deptOptions.map((d) => ({
        key: `dept:${d.value}`,
        label: d.label,
        icon: switching === d.value ? <LoadingOutlined /> : d.value === deptId ? <CheckOutlined /> : <Blank />,
        className: d.value === deptId ? 'mq-menu-current' : undefined,
        'data-testid': `dept-${d.value}`,
        disabled: switching !== null && switching !== d.value,
      })),
    },
    { type: 'divider' },
    {
      type: 'group',
      key: 'lang',
      label: t('user.language'),
      children: languages.map((l) => ({
        key: `lang:${l}`,
        label: t(`lang.${l}`),
        icon: l === currentLocale ? <CheckOutlined /> : <Blank />,
        className: l === currentLocale ? 'mq-menu-current' : undefined,
        'data-testid': `lang-${l}`,
      })),
    },
    { type: 'divider' },
    { key: 'skin', label: t('user.skin'), icon: <SkinOutlined />, 'data-testid': 'user-skin' },
    { key: 'logout', label: t('user.logout'), icon: <LogoutOutlined />, danger: true, 'data-testid': 'logout' },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key.startsWith('dept:') || key.startsWith('ent:')) {
      const [kind, id] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
      void switchTo(kind as 'dept' | 'ent', id);
      return;
    }
    setOpen(false);
    if (key.startsWith('lang:')) {
      const locale = key.slice('lang:'.length);
      if (locale !== currentLocale) switchLocale(locale);
    } else if (key === 'skin') navigate('/skin');
    else if (key === 'logout') void useSession.getState().logout();
  };

  const displayName = userName || loginName;
  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      open={open}
      onOpenChange={(next, info) => {
        // Department entries keep the menu open while the switch runs.
        if (info.source === 'menu') return;
        if (!switching) setOpen(next);
      }}
      classNames={{ root: 'mq-user-dropdown' }}
      menu={{ items, onClick, selectable: false }}
    >
      <button type="button" className="mq-user" data-testid="user-dropdown">
        <Avatar size={30} className="mq-user-avatar">
          {displayName.slice(0, 1).toUpperCase()}
        </Avatar>
        <span className="mq-user-text">
          <span className="mq-user-name">{displayName}</span>
          <span className="mq-user-dept" data-testid="user-dept-name">
            {/* Acting for another enterprise: say which, before its department. */}
            {entId && homeEntId && entId !== homeEntId ? `${entName} · ${deptName}` : deptName}
          </span>
        </span>
        <DownOutlined className="mq-user-caret" />
      </button>
    </Dropdown>
  );
}
