import {
  companyNameSchema,
  loginAccountSchema,
  mobileSchema,
  socialCreditCodeSchema,
  verificationCodeSchema,
} from '@marquee/protocol';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Result, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, call } from '../../api/client';
import { AuthFrame, PromptLink } from './AuthFrame';
import { AuthForm, PasswordPair, useRules } from './PasswordPair';
import { finishLogin, useCountdown } from './plainForm';
import './auth.css';

interface CompanyValues {
  companyName: string;
  socialCreditCode: string;
  loginName: string;
  password: string;
  confirmPassword: string;
  phone: string;
  code: string;
}

/** Company self-registration: the enterprise, its administrator, a code to the phone; then logged in. */
function CompanyForm() {
  const { t, required, rule } = useRules();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<CompanyValues>();
  const [left, startCountdown] = useCountdown();
  const [sent, setSent] = useState(false);

  const send = useMutation({
    mutationFn: async () => {
      const { phone } = await form.validateFields(['phone']);
      return call('codeSend', { purpose: 'register', target: phone.trim() });
    },
    onSuccess: (res) => {
      setSent(true);
      startCountdown(res.resendIn);
      void message.success(t('register.codeSent'));
    },
  });

  const submit = useMutation({
    mutationFn: (v: CompanyValues) =>
      call('register', {
        companyName: v.companyName,
        socialCreditCode: v.socialCreditCode,
        loginName: v.loginName,
        password: v.password,
        confirmPassword: v.confirmPassword,
        phone: v.phone,
        code: v.code,
      }),
    onSuccess: (res) => {
      void message.success(t('register.done'));
      finishLogin(res, t, navigate, null);
    },
  });

  return (
    <AuthForm<CompanyValues>
      form={form}
      pending={submit.isPending}
      onFinish={(v) => submit.mutate(v)}
      submit={{ label: t('register.submit'), testId: 'register-submit' }}
      testId="register-form"
    >
      <Form.Item name="companyName" label={t('register.company')} rules={[required, rule(companyNameSchema)]}>
        <Input autoFocus maxLength={100} data-testid="register-company" />
      </Form.Item>
      <Form.Item
        name="socialCreditCode"
        label={t('register.creditCode')}
        rules={[required, rule(socialCreditCodeSchema)]}
      >
        <Input maxLength={18} data-testid="register-credit-code" />
      </Form.Item>
      <Form.Item
        name="loginName"
        label={t('register.account')}
        rules={[required, rule(loginAccountSchema)]}
        extra={t('register.accountRule')}
      >
        <Input autoComplete="username" maxLength={32} data-testid="register-account" />
      </Form.Item>
      <PasswordPair prefix="register" />
      <Form.Item name="phone" label={t('register.phone')} rules={[required, rule(mobileSchema)]}>
        <Input type="tel" autoComplete="tel" maxLength={20} data-testid="register-phone" />
      </Form.Item>
      <Form.Item label={t('register.code')} required extra={sent ? t('register.codeHint') : undefined}>
        <Space.Compact block>
          <Form.Item name="code" noStyle rules={[required, rule(verificationCodeSchema)]}>
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              aria-label={t('register.code')}
              data-testid="register-code"
            />
          </Form.Item>
          <Button
            onClick={() => send.mutate()}
            loading={send.isPending}
            disabled={left > 0 || submit.isPending}
            data-testid="register-send-code"
          >
            {left > 0 ? t('register.resendIn', { seconds: left }) : t('register.sendCode')}
          </Button>
        </Space.Compact>
      </Form.Item>
    </AuthForm>
  );
}

interface InviteValues {
  loginName: string;
  realName: string;
  password: string;
  confirmPassword: string;
  phone?: string;
}

/** Registration through an invitation link (made by an enterprise administrator as a QR code). */
function InviteForm({ token }: { token: string }) {
  const { t, required, rule } = useRules();
  const navigate = useNavigate();
  const [form] = Form.useForm<InviteValues>();
  const info = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => call('invitationInspect', { token }, { silent: true }),
    retry: false,
  });
  const accept = useMutation({
    mutationFn: (v: InviteValues) =>
      call('invitationAccept', {
        token,
        loginName: v.loginName,
        realName: v.realName,
        password: v.password,
        phone: v.phone?.trim() ?? '',
      }),
    onSuccess: (res) =>
      navigate('/login', { replace: true, state: { notice: t('invite.done'), loginName: res.loginName } }),
  });

  if (info.isPending) return <Skeleton active data-testid="invite-loading" />;
  if (info.isError) {
    return (
      <Result
        status="warning"
        title={t('invite.invalid')}
        subTitle={info.error instanceof ApiError ? info.error.message : undefined}
        extra={
          <Link to="/login/register" data-testid="invite-company-link">
            {t('invite.companyInstead')}
          </Link>
        }
        data-testid="invite-invalid"
      />
    );
  }
  return (
    <>
      <Alert
        type="info"
        showIcon
        className="mq-register-invite"
        title={
          <span>
            {t('invite.joining')}{' '}
            <Typography.Text strong data-testid="invite-enterprise">
              {info.data.enterpriseName}
            </Typography.Text>
          </span>
        }
        description={[info.data.deptName, info.data.roleName].filter(Boolean).join(' · ') || undefined}
      />
      <AuthForm<InviteValues>
        form={form}
        pending={accept.isPending}
        onFinish={(v) => accept.mutate(v)}
        submit={{ label: t('invite.submit'), testId: 'invite-submit' }}
        testId="invite-form"
      >
        <Form.Item
          name="loginName"
          label={t('register.account')}
          rules={[required, rule(loginAccountSchema)]}
          extra={t('register.accountRule')}
        >
          <Input autoFocus autoComplete="username" maxLength={32} data-testid="invite-account" />
        </Form.Item>
        <Form.Item name="realName" label={t('invite.realName')} rules={[required, { max: 30 }]}>
          <Input autoComplete="name" maxLength={30} data-testid="invite-real-name" />
        </Form.Item>
        <PasswordPair prefix="invite" />
        <Form.Item name="phone" label={t('invite.phone')} rules={[rule(mobileSchema)]}>
          <Input type="tel" autoComplete="tel" maxLength={20} data-testid="invite-phone" />
        </Form.Item>
      </AuthForm>
    </>
  );
}

/**
 * /login/register (spec section 2 'Login': register): company self-registration, or, with
 * `?invite=<token>`, registration into the inviting enterprise.
 */
export default function RegisterPage() {
  const { t } = useTranslation(['auth', 'common']);
  const [params] = useSearchParams();
  const invite = params.get('invite');
  return (
    <AuthFrame
      testId="register-page"
      className="mq-register"
      cardClassName="mq-register-card"
      brand={t('common:app.name')}
      subtitle={t(invite ? 'invite.subtitle' : 'register.subtitle')}
      title={t(invite ? 'invite.title' : 'register.title')}
      footer={
        <PromptLink prompt={t('register.haveAccount')} to="/login" testId="register-login-link">
          {t('register.toLogin')}
        </PromptLink>
      }
    >
      {invite ? <InviteForm token={invite} /> : <CompanyForm />}
    </AuthFrame>
  );
}
