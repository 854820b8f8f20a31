import { DingtalkOutlined, MobileOutlined, WechatOutlined } from '@ant-design/icons';
import {
  emailAddressSchema,
  loginPasswordSchema,
  mobileSchema,
  OAUTH_PROVIDERS,
  type OAuthProvider,
  Perm,
  type Profile,
  realNameSchema,
  verificationCodeSchema,
} from '@marquee/protocol';
import { useQueryClient } from '@tanstack/react-query';
import type { ButtonProps } from 'antd';
import {
  App,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  List,
  Modal,
  Popconfirm,
  Skeleton,
  Space,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { callKey, useCallMutation, useCallQuery } from '../../api/queries';
import { requiredRule, zodRule } from '../../components/zodRule';
import { useSession } from '../../session/session';
import { PasswordPair } from '../auth/PasswordPair';
import { useCountdown } from '../auth/plainForm';
import { StorageUsage } from '../materials/StorageUsage';
import './my.css';

const ScanLogin = lazy(() => import('../auth/ScanLogin'));

const PROFILE_KEY = callKey('profileGet', {});

/** Puts a changed profile (the answer of a profile change) in place of the loaded one. */
function useSetProfile() {
  const queryClient = useQueryClient();
  return (profile: Profile) => queryClient.setQueryData(PROFILE_KEY, profile);
}

/** Profile: login account, enterprise and departments read-only; real name and e-mail editable. */
function ProfileTab({ profile }: { profile: Profile }) {
  const { t } = useTranslation(['my', 'validation']);
  const setProfile = useSetProfile();
  const [form] = Form.useForm<{ realName: string; email: string }>();
  useEffect(() => form.setFieldsValue({ realName: profile.realName, email: profile.email }), [form, profile]);
  const save = useCallMutation('profileUpdate', {
    success: t('profile.saved'),
    onSuccess: async (next) => {
      setProfile(next);
      useSession.getState().setUserInfo(await call('authInfo', {}));
    },
  });
  return (
    <div className="mq-my-section">
      <Descriptions column={1} bordered size="small" className="mq-my-readonly">
        <Descriptions.Item label={t('profile.loginName')}>
          <span data-testid="my-login-name">{profile.loginName}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('profile.enterprise')}>
          <span data-testid="my-enterprise">{profile.entName}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('profile.departments')}>
          <span data-testid="my-departments">
            {profile.departments.length > 0
              ? profile.departments.map((d) => <Tag key={d.id}>{d.name}</Tag>)
              : t('profile.noDepartment')}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('profile.phone')}>
          <span data-testid="my-phone">{profile.phone || t('profile.none')}</span>
        </Descriptions.Item>
      </Descriptions>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => save.mutate({ realName: v.realName, email: v.email ?? '' })}
        disabled={save.isPending}
      >
        <Form.Item name="realName" label={t('profile.realName')} rules={[requiredRule(t), zodRule(realNameSchema, t)]}>
          <Input maxLength={30} data-testid="my-real-name" />
        </Form.Item>
        <Form.Item name="email" label={t('profile.email')} rules={[zodRule(emailAddressSchema, t)]}>
          <Input type="email" maxLength={254} data-testid="my-email" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="my-save">
          {t('profile.save')}
        </Button>
      </Form>
    </div>
  );
}

/** Change password: the current one, the new one (strength rule) and its confirmation; other sessions end. */
function PasswordTab() {
  const { t } = useTranslation(['my', 'validation']);
  const [form] = Form.useForm<{ oldPassword: string; password: string; confirmPassword: string }>();
  const change = useCallMutation('changePassword', {
    success: t('password.done'),
    onSuccess: () => form.resetFields(),
  });
  return (
    <div className="mq-my-section">
      <Typography.Paragraph type="secondary">{t('password.description')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => change.mutate(v)}
        disabled={change.isPending}
      >
        <Form.Item
          name="oldPassword"
          label={t('password.old')}
          rules={[requiredRule(t), zodRule(loginPasswordSchema, t)]}
        >
          <Input.Password autoComplete="current-password" data-testid="my-old-password" />
        </Form.Item>
        <PasswordPair prefix="my" label={t('password.new')} />
        <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="my-change-password">
          {t('password.submit')}
        </Button>
      </Form>
    </div>
  );
}

/** Phone: a code to the new number, then bind it. */
function PhoneDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['my', 'validation']);
  const setProfile = useSetProfile();
  const [form] = Form.useForm<{ phone: string; code: string }>();
  const [left, startCountdown] = useCountdown();
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  const send = useCallMutation('profilePhoneCode', {
    success: t('phone.codeSent'),
    onSuccess: (res) => startCountdown(res.resendIn),
  });
  // The code goes to a valid number only: the field shows why not otherwise.
  const sendCode = () =>
    form.validateFields(['phone']).then(
      ({ phone }) => send.mutate({ phone }),
      () => undefined,
    );
  const bind = useCallMutation('profileBindPhone', {
    success: t('phone.done'),
    onSuccess: (next) => {
      setProfile(next);
      onClose();
    },
  });
  const required = requiredRule(t);
  return (
    <Modal
      open={open}
      title={t('phone.title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('phone.submit')}
      okButtonProps={{ loading: bind.isPending, 'data-testid': 'my-bind-phone' } as ButtonProps}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => bind.mutate(v)}
        disabled={bind.isPending}
      >
        <Form.Item name="phone" label={t('phone.number')} rules={[required, zodRule(mobileSchema, t)]}>
          <Input type="tel" maxLength={20} data-testid="my-new-phone" />
        </Form.Item>
        <Form.Item label={t('phone.code')} required>
          <Space.Compact block>
            <Form.Item name="code" noStyle rules={[required, zodRule(verificationCodeSchema, t)]}>
              <Input inputMode="numeric" maxLength={6} data-testid="my-code" />
            </Form.Item>
            <Button
              onClick={() => void sendCode()}
              loading={send.isPending}
              disabled={left > 0}
              data-testid="my-send-code"
            >
              {left > 0 ? t('phone.resendIn', { seconds: left }) : t('phone.send')}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>
    </Modal>
  );
}

const ICONS = { wechat: <WechatOutlined />, dingtalk: <DingtalkOutlined /> };

/** Bound accounts: phone, WeChat and DingTalk (bind by scanning, unbind after confirmation). */
function BindingsTab({ profile }: { profile: Profile }) {
  const { t } = useTranslation(['my', 'login']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const setProfile = useSetProfile();
  const [binding, setBinding] = useState<OAuthProvider | null>(null);
  const [phoneOpen, setPhoneOpen] = useState(false);
  const unbind = useCallMutation('oauthUnbind', {
    success: t('bind.unbound'),
    onSuccess: (bindings) => setProfile({ ...profile, bindings }),
  });
  return (
    <div className="mq-my-section">
      <List bordered>
        <List.Item
          actions={[
            <Button key="phone" onClick={() => setPhoneOpen(true)} data-testid="my-change-phone">
              {profile.phone ? t('phone.change') : t('phone.bind')}
            </Button>,
          ]}
        >
          <List.Item.Meta
            avatar={<MobileOutlined className="mq-my-bind-icon" />}
            title={t('phone.title')}
            description={<span data-testid="my-bound-phone">{profile.phone || t('profile.none')}</span>}
          />
        </List.Item>
        {OAUTH_PROVIDERS.map((provider) => {
          const bound = profile.bindings.find((b) => b.provider === provider);
          const online = profile.providers[provider];
          return (
            <List.Item
              key={provider}
              data-testid={`my-binding-${provider}`}
              actions={[
                bound ? (
                  <Popconfirm
                    key="unbind"
                    title={t('bind.confirmUnbind', { provider: t(`bind.${provider}`) })}
                    onConfirm={() => unbind.mutateAsync({ provider })}
                    okButtonProps={{ 'data-testid': `my-unbind-${provider}-confirm` } as ButtonProps}
                  >
                    <Button
                      danger
                      loading={unbind.isPending && unbind.variables?.provider === provider}
                      data-testid={`my-unbind-${provider}`}
                    >
                      {t('bind.unbind')}
                    </Button>
                  </Popconfirm>
                ) : (
                  <Button
                    key="bind"
                    type="primary"
                    disabled={!online}
                    onClick={() => setBinding(provider)}
                    data-testid={`my-bind-${provider}`}
                  >
                    {t('bind.bind')}
                  </Button>
                ),
              ]}
            >
              <List.Item.Meta
                avatar={<span className="mq-my-bind-icon">{ICONS[provider]}</span>}
                title={t(`bind.${provider}`)}
                description={
                  bound ? (
                    <span data-testid={`my-bound-${provider}`}>
                      {t('bind.boundAs', { nickname: bound.nickname || '—' })}
                    </span>
                  ) : online ? (
                    t('bind.notBound')
                  ) : (
                    <Tag>{t('bind.notOnline')}</Tag>
                  )
                }
              />
            </List.Item>
          );
        })}
      </List>
      <Modal
        open={binding !== null}
        title={binding ? t('bind.scanTitle', { provider: t(`bind.${binding}`) }) : ''}
        footer={null}
        onCancel={() => setBinding(null)}
        destroyOnHidden
        width={360}
      >
        {binding ? (
          <Suspense fallback={<Skeleton.Image active />}>
            <ScanLogin
              provider={binding}
              mode="bind"
              onBound={() => {
                setBinding(null);
                void queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
                void message.success(t('bind.bound'));
              }}
            />
          </Suspense>
        ) : null}
      </Modal>
      <PhoneDialog open={phoneOpen} onClose={() => setPhoneOpen(false)} />
    </div>
  );
}

/** The personal centre (route /my): profile, change password, bound accounts. */
export default function MyPage() {
  const { t } = useTranslation('my');
  const profile = useCallQuery('profileGet', {});
  const canOutbox = useSession((s) => s.can(Perm.devOutbox));
  const canMaterials = useSession((s) => s.can(Perm.advMaterial));
  return (
    <div className="mq-view mq-my" data-testid="my-page">
      <Typography.Title level={3}>{t('title')}</Typography.Title>
      {/* The outbox link sits in the card's header: inside the tab list it would be a link among tabs. */}
      <Card
        extra={
          canOutbox ? (
            <Link to="/dev/outbox" data-testid="my-outbox-link">
              {t('outboxLink')}
            </Link>
          ) : undefined
        }
      >
        {profile.data ? (
          <Tabs
            items={[
              {
                key: 'profile',
                label: <span data-testid="my-tab-profile">{t('tab.profile')}</span>,
                children: <ProfileTab profile={profile.data} />,
              },
              {
                key: 'password',
                label: <span data-testid="my-tab-password">{t('tab.password')}</span>,
                children: <PasswordTab />,
              },
              {
                key: 'bindings',
                label: <span data-testid="my-tab-bindings">{t('tab.bindings')}</span>,
                children: <BindingsTab profile={profile.data} />,
              },
            ]}
          />
        ) : (
          <Skeleton active />
        )}
      </Card>
      {canMaterials ? (
        <Card title={t('storage')} className="mq-my-storage" data-testid="my-storage">
          <StorageUsage />
        </Card>
      ) : null}
    </div>
  );
}
