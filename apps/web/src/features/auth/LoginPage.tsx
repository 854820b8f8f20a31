import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import DingtalkOutlined from '@ant-design/icons-svg/es/asn/DingtalkOutlined';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import MobileOutlined from '@ant-design/icons-svg/es/asn/MobileOutlined';
import UserOutlined from '@ant-design/icons-svg/es/asn/UserOutlined';
import WechatOutlined from '@ant-design/icons-svg/es/asn/WechatOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { issueMessage, loginAccountSchema, loginPasswordSchema } from '@marquee/protocol';
import { type FormEvent, lazy, Suspense, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { ApiError, call } from '../../api/client';
import { SvgIcon } from '../../components/plain/SvgIcon';
import { validationMessage } from '../../components/zodRule';
import { canStorePasswords, recallPassword } from '../../session/credentials';
import { useSession } from '../../session/session';
import { AuthFrame, PromptLink } from './AuthFrame';
import { PhoneCodeLogin } from './PhoneCodeLogin';
import { finishLogin, SubmitButton } from './plainForm';
import './auth.css';

// The scan tabs (with the QR renderer) and password retrieval load when first opened.
const ScanLogin = lazy(() => import('./ScanLogin'));
const ForgotPassword = lazy(() => import('./ForgotPassword'));

type Field = 'loginName' | 'password';
type Tab = 'account' | 'phone' | 'wechat' | 'dingtalk';

const TABS: { key: Tab; label: string; icon: IconDefinition }[] = [
  { key: 'account', label: 'tab.account', icon: UserOutlined },
  { key: 'phone', label: 'tab.phone', icon: MobileOutlined },
  { key: 'wechat', label: 'tab.wechat', icon: WechatOutlined },
  { key: 'dingtalk', label: 'tab.dingtalk', icon: DingtalkOutlined },
];

const SCHEMAS: Record<Field, z.ZodType> = { loginName: loginAccountSchema, password: loginPasswordSchema };
const REQUIRED: Record<Field, string> = { loginName: 'required.account', password: 'required.password' };

/**
 * Login (spec section 2 "Login"): account and password with remember-password, validated
 * with the protocol's rules (the server applies the same); the server's message on failure;
 * the weak-password warning after login, and the forced password change (updatePwd). The
 * other tabs: verification code (PhoneCodeLogin), WeChat and DingTalk scan (ScanLogin, a
 * real QR code of the provider's authorization URL); links to register and to password
 * retrieval (ForgotPassword).
 *
 * Plain markup styled like antd: the login route must load at most 200 KB gzip of
 * JavaScript, and antd alone would take most of it. antd arrives with the shell.
 */
export default function LoginPage() {
  const { t } = useTranslation(['login', 'validation', 'errors', 'common']);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = useId();
  const remembered = useSession((s) => s.remeberPWD);
  const rememberedName = useSession((s) => s.loginName);
  const [tab, setTab] = useState<Tab>('account');
  // A registration through an invitation comes back here with its message and account.
  const arrived = useLocation().state as { notice?: string; loginName?: string } | null;
  const [values, setValues] = useState({
    loginName: arrived?.loginName ?? (remembered ? rememberedName : ''),
    password: '',
    remember: remembered,
  });
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(arrived?.notice ?? null);
  const [forgot, setForgot] = useState(false);

  useEffect(() => {
    if (!remembered || !canStorePasswords()) return;
    let live = true;
    void recallPassword().then((credential) => {
      if (live && credential) setValues((v) => (v.password ? v : { ...v, ...credential }));
    });
    return () => {
      live = false;
    };
  }, [remembered]);

  const check = (field: Field, value: string): string | undefined => {
    if (!value.trim()) return t(REQUIRED[field]);
    const result = SCHEMAS[field].safeParse(field === 'loginName' ? value.trim() : value);
    return result.success ? undefined : validationMessage(t, issueMessage(result.error.issues[0]));
  };

  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setServerError(null);
    if (errors[field]) setErrors((e) => ({ ...e, [field]: check(field, value) }));
  };

  const blur = (field: Field) => {
    if (values[field]) setErrors((e) => ({ ...e, [field]: check(field, values[field]) }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = { loginName: check('loginName', values.loginName), password: check('password', values.password) };
    setErrors(next);
    if (next.loginName || next.password || submitting) return;
    setServerError(null);
    setSubmitting(true);
    try {
      const { loginName, password, remember } = values;
      const res = await call('login', { loginName: loginName.trim(), password }, { silent: true });
      finishLogin(res, t, navigate, params.get('redirect'), { password, remember });
    } catch (err) {
      setServerError(err instanceof ApiError ? err.message : t('errors:operationFailed'));
      setSubmitting(false);
    }
  };

  const input = (field: Field, type: 'text' | 'password', icon: IconDefinition) => (
    <div className="mq-field">
      <label htmlFor={`${id}-${field}`}>{t(field === 'loginName' ? 'field.account' : 'field.password')}</label>
      <span className={errors[field] ? 'mq-input mq-input-error' : 'mq-input'}>
        <SvgIcon icon={icon} className="mq-input-prefix" />
        <input
          id={`${id}-${field}`}
          name={field === 'loginName' ? 'username' : 'password'}
          type={type}
          placeholder={t(field === 'loginName' ? 'field.account.placeholder' : 'field.password.placeholder')}
          autoComplete={field === 'loginName' ? 'username' : 'current-password'}
          autoFocus={field === 'loginName'}
          value={values[field]}
          aria-invalid={Boolean(errors[field])}
          aria-describedby={errors[field] ? `${id}-${field}-error` : undefined}
          onChange={(e) => change(field, e.target.value)}
          onBlur={() => blur(field)}
          data-testid={field === 'loginName' ? 'login-account' : 'login-password'}
        />
        {field === 'password' ? (
          <button
            type="button"
            className="mq-input-suffix"
            aria-label={t('field.password')}
            aria-pressed={showPassword}
            onClick={() => setShowPassword((v) => !v)}
          >
            <SvgIcon icon={showPassword ? EyeOutlined : EyeInvisibleOutlined} />
          </button>
        ) : null}
      </span>
      {errors[field] ? (
        <div id={`${id}-${field}-error`} className="mq-field-error" role="alert">
          {errors[field]}
        </div>
      ) : null}
    </div>
  );

  return (
    <AuthFrame
      testId="login-page"
      brand={t('common:app.name')}
      subtitle={t('subtitle')}
      title={t('title')}
      titleId={`${id}-title`}
      footer={
        <PromptLink prompt={t('register.prompt')} to="/login/register" testId="login-register">
          {t('register')}
        </PromptLink>
      }
    >
      {forgot ? (
        <Suspense fallback={<span className="mq-spinner" aria-hidden />}>
          <ForgotPassword
            onBack={() => setForgot(false)}
            onDone={(message) => {
              setForgot(false);
              setTab('account');
              setValues((v) => ({ ...v, password: '' }));
              setNotice(message);
            }}
          />
        </Suspense>
      ) : (
        <>
          <div className="mq-login-tabs" role="tablist">
            {TABS.map((item) => (
              <button
                key={item.key}
                type="button"
                role="tab"
                id={`${id}-tab-${item.key}`}
                aria-selected={item.key === tab}
                aria-controls={`${id}-panel`}
                className={item.key === tab ? 'mq-login-tab mq-login-tab-active' : 'mq-login-tab'}
                onClick={() => setTab(item.key)}
                data-testid={`login-tab-${item.key}`}
              >
                {t(item.label)}
              </button>
            ))}
          </div>
          <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${tab}`}>
            {tab === 'account' ? (
              <form className="mq-login-form" onSubmit={submit} noValidate>
                {serverError ? (
                  <div className="mq-alert mq-alert-error" role="alert" data-testid="login-error">
                    <SvgIcon icon={CloseCircleFilled} className="mq-alert-icon" />
                    <span>{serverError}</span>
                  </div>
                ) : null}
                {input('loginName', 'text', UserOutlined)}
                {input('password', showPassword ? 'text' : 'password', LockOutlined)}
                <div className="mq-login-row">
                  <label className="mq-checkbox">
                    <input
                      type="checkbox"
                      checked={values.remember}
                      onChange={(e) => setValues((v) => ({ ...v, remember: e.target.checked }))}
                      data-testid="login-remember"
                    />
                    <span>{t('remember')}</span>
                  </label>
                  <button
                    type="button"
                    className="mq-link-button"
                    onClick={() => {
                      setNotice(null);
                      setForgot(true);
                    }}
                    data-testid="login-forgot"
                  >
                    {t('forgot')}
                  </button>
                </div>
                {values.remember ? (
                  <p className="mq-login-hint">
                    {canStorePasswords() ? t('remember.browser') : t('remember.accountOnly')}
                  </p>
                ) : null}
                {notice ? (
                  <p
                    className="mq-login-hint mq-login-notice mq-login-success"
                    role="status"
                    data-testid="login-notice"
                  >
                    {notice}
                  </p>
                ) : null}
                <SubmitButton submitting={submitting} testId="login-submit">
                  {t('submit')}
                </SubmitButton>
              </form>
            ) : null}
            {tab === 'phone' ? <PhoneCodeLogin /> : null}
            {tab === 'wechat' || tab === 'dingtalk' ? (
              <Suspense fallback={<span className="mq-spinner" aria-hidden />}>
                <ScanLogin key={tab} provider={tab} />
              </Suspense>
            ) : null}
          </div>
        </>
      )}
    </AuthFrame>
  );
}
