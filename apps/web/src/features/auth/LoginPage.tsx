import { DingtalkOutlined, LockOutlined, MobileOutlined, UserOutlined, WechatOutlined } from '@ant-design/icons';
import { loginAccountSchema, loginPasswordSchema } from '@marquee/protocol';
import { Alert, App, Button, Checkbox, Form, Input, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, call } from '../../api/client';
import { canStorePasswords, recallPassword } from '../../app/credentials';
import { safeRedirect } from '../../app/guards';
import { useSession } from '../../app/session';
import { zodRule } from '../../components/zodRule';
import { LanguageSwitch } from './LanguageSwitch';

interface LoginForm {
  loginName: string;
  password: string;
  remember: boolean;
}

type Tab = 'account' | 'phone' | 'wechat' | 'dingtalk';

/** A login method that comes with a later issue: says so in the user's language. */
function NotOnlineMethod({ feature, icon }: { feature: string; icon: React.ReactNode }) {
  const { t } = useTranslation('login');
  return (
    <div className="mq-login-not-online" role="status">
      <span className="mq-login-not-online-icon" aria-hidden>
        {icon}
      </span>
      <p className="mq-login-not-online-title">{t('notOnline', { feature })}</p>
      <p>{t('notOnline.later')}</p>
    </div>
  );
}

/**
 * Login (spec section 2 "Login"): account and password with remember-password, validated
 * with the protocol's rules; the server's message on failure; the weak-password warning and
 * the forced-password-change notice after login. Phone code, WeChat, DingTalk, register and
 * forgot-password come with later issues and say 'feature not online'.
 */
export default function LoginPage() {
  const { t } = useTranslation(['login', 'validation', 'errors', 'common']);
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<LoginForm>();
  const [tab, setTab] = useState<Tab>('account');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remembered = useSession((s) => s.remeberPWD);
  const rememberedName = useSession((s) => s.loginName);
  const setLogin = useSession((s) => s.setLogin);

  useEffect(() => {
    if (!remembered || !canStorePasswords()) return;
    let live = true;
    void recallPassword().then((credential) => {
      if (live && credential && !form.getFieldValue('password')) form.setFieldsValue(credential);
    });
    return () => {
      live = false;
    };
  }, [remembered, form]);

  const onFinish = async ({ loginName, password, remember }: LoginForm) => {
    setError(null);
    setSubmitting(true);
    try {
      const res = await call('login', { loginName, password }, { silent: true });
      setLogin(res, { password, remember: Boolean(remember) });
      message.success(t('success'));
      navigate(safeRedirect(params.get('redirect')), { replace: true });
      if (res.weakPassword) {
        modal.warning({
          title: t('weakPassword.title'),
          content: t('weakPassword.content'),
          okText: t('common:action.ok'),
        });
      }
      if (res.updatePwd) {
        modal.info({ title: t('updatePwd.title'), content: t('updatePwd.content'), okText: t('common:action.ok') });
      }
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors:operationFailed'));
    } finally {
      setSubmitting(false);
    }
  };

  const notOnline = (feature: string) => message.info(t('notOnline', { feature }));

  const accountForm = (
    <Form<LoginForm>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={{ loginName: remembered ? rememberedName : '', password: '', remember: remembered }}
      onFinish={onFinish}
      onValuesChange={() => error && setError(null)}
      autoComplete="on"
    >
      {error ? (
        <Alert className="mq-login-error" type="error" showIcon title={error} role="alert" data-testid="login-error" />
      ) : null}
      <Form.Item
        name="loginName"
        label={t('field.account')}
        validateFirst
        rules={[{ required: true, whitespace: true, message: t('required.account') }, zodRule(loginAccountSchema, t)]}
      >
        <Input
          size="large"
          prefix={<UserOutlined aria-hidden />}
          placeholder={t('field.account.placeholder')}
          data-testid="login-account"
          autoComplete="username"
          autoFocus
        />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('field.password')}
        validateFirst
        rules={[{ required: true, message: t('required.password') }, zodRule(loginPasswordSchema, t)]}
      >
        <Input.Password
          size="large"
          prefix={<LockOutlined aria-hidden />}
          placeholder={t('field.password.placeholder')}
          data-testid="login-password"
          autoComplete="current-password"
        />
      </Form.Item>
      <div className="mq-login-row">
        <Form.Item name="remember" valuePropName="checked" noStyle>
          <Checkbox data-testid="login-remember">{t('remember')}</Checkbox>
        </Form.Item>
        <Button type="link" size="small" onClick={() => notOnline(t('forgot'))}>
          {t('forgot')}
        </Button>
      </div>
      <Form.Item noStyle shouldUpdate={(a, b) => a.remember !== b.remember}>
        {() =>
          form.getFieldValue('remember') ? (
            <p className="mq-login-hint">{canStorePasswords() ? t('remember.browser') : t('remember.accountOnly')}</p>
          ) : null
        }
      </Form.Item>
      <Button type="primary" htmlType="submit" size="large" block loading={submitting} data-testid="login-submit">
        {t('submit')}
      </Button>
    </Form>
  );

  return (
    <div className="mq-login" data-testid="login-page">
      <aside className="mq-login-brand">
        <div className="mq-login-logo" aria-hidden>
          M
        </div>
        <h1>{t('common:app.name')}</h1>
        <p>{t('subtitle')}</p>
      </aside>
      <main className="mq-login-panel">
        <div className="mq-login-top">
          <LanguageSwitch />
        </div>
        <section className="mq-login-card" aria-labelledby="mq-login-title">
          <h2 id="mq-login-title">{t('title')}</h2>
          <Tabs
            activeKey={tab}
            onChange={(key) => setTab(key as Tab)}
            items={[
              { key: 'account', label: t('tab.account'), children: accountForm },
              {
                key: 'phone',
                label: t('tab.phone'),
                children: <NotOnlineMethod feature={t('tab.phone')} icon={<MobileOutlined />} />,
              },
              {
                key: 'wechat',
                label: t('tab.wechat'),
                children: <NotOnlineMethod feature={t('tab.wechat')} icon={<WechatOutlined />} />,
              },
              {
                key: 'dingtalk',
                label: t('tab.dingtalk'),
                children: <NotOnlineMethod feature={t('tab.dingtalk')} icon={<DingtalkOutlined />} />,
              },
            ]}
          />
          <div className="mq-login-footer">
            <Link to="/login/register">{t('register')}</Link>
          </div>
        </section>
      </main>
    </div>
  );
}
