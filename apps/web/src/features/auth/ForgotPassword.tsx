import LockOutlined from '@ant-design/icons-svg/es/asn/LockOutlined';
import MobileOutlined from '@ant-design/icons-svg/es/asn/MobileOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import { codeTargetSchema, strongPasswordSchema, verificationCodeSchema } from '@marquee/protocol';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { failure, PlainAlert, PlainField, ruleError, SendCodeButton, SubmitButton, useCountdown } from './plainForm';
import './auth.css';

type Field = 'target' | 'code' | 'password' | 'confirmPassword';

/**
 * Password retrieval (spec section 2 'Login': forgot password): a code to the account's
 * mobile number or e-mail address, then the code with a new password (strength rule) and
 * its confirmation. The server ends every session of the account. Plain markup (login route).
 */
export default function ForgotPassword({ onDone, onBack }: { onDone: (message: string) => void; onBack: () => void }) {
  const { t } = useTranslation(['login', 'validation', 'errors']);
  const id = useId();
  const [values, setValues] = useState<Record<Field, string>>({
    target: '',
    code: '',
    password: '',
    confirmPassword: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [left, startCountdown] = useCountdown();

  const check = (field: Field, v: Record<Field, string> = values): string | undefined => {
    if (field === 'target') return ruleError(t, codeTargetSchema, v.target);
    if (field === 'code') return ruleError(t, verificationCodeSchema, v.code);
    if (field === 'password') return ruleError(t, strongPasswordSchema, v.password);
    if (!v.confirmPassword) return t('validation:required');
    return v.confirmPassword === v.password ? undefined : t('validation:passwordConfirm');
  };

  const change = (field: Field, value: string) => {
    const next = { ...values, [field]: field === 'code' ? value.replace(/\D/g, '') : value };
    setValues(next);
    setServerError(null);
    if (errors[field]) setErrors((e) => ({ ...e, [field]: check(field, next) }));
  };

  const send = async () => {
    const targetError = check('target');
    setErrors((e) => ({ ...e, target: targetError }));
    if (targetError || sending || left > 0) return;
    setSending(true);
    setServerError(null);
    try {
      const res = await call('codeSend', { purpose: 'reset_password', target: values.target.trim() }, { silent: true });
      setSent(true);
      startCountdown(res.resendIn);
    } catch (err) {
      setServerError(failure(err, t).message);
    } finally {
      setSending(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: Partial<Record<Field, string>> = {};
    for (const field of ['target', 'code', 'password', 'confirmPassword'] as const) next[field] = check(field);
    setErrors(next);
    if (Object.values(next).some(Boolean) || submitting) return;
    setSubmitting(true);
    setServerError(null);
    try {
      await call(
        'passwordReset',
        {
          target: values.target.trim(),
          code: values.code,
          password: values.password,
          confirmPassword: values.confirmPassword,
        },
        { silent: true },
      );
      onDone(t('forgot.done'));
    } catch (err) {
      setServerError(failure(err, t).message);
      setSubmitting(false);
    }
  };

  const field = (name: Field, extra: Partial<Parameters<typeof PlainField>[0]> & { testId: string }) => (
    <PlainField
      id={`${id}-${name}`}
      label={t(`forgot.field.${name}`)}
      placeholder={t(`forgot.field.${name}.placeholder`)}
      value={values[name]}
      error={errors[name]}
      onChange={(v) => change(name, v)}
      onBlur={() => values[name] && setErrors((e) => ({ ...e, [name]: check(name) }))}
      {...extra}
    />
  );

  return (
    <form className="mq-login-form" onSubmit={submit} noValidate data-testid="forgot-form">
      <h3 className="mq-forgot-title">{t('forgot')}</h3>
      {serverError ? <PlainAlert testId="forgot-error">{serverError}</PlainAlert> : null}
      {field('target', { icon: MobileOutlined, autoComplete: 'username', autoFocus: true, testId: 'forgot-target' })}
      {field('code', {
        icon: SafetyOutlined,
        inputMode: 'numeric',
        autoComplete: 'one-time-code',
        maxLength: 6,
        testId: 'forgot-code',
        after: <SendCodeButton left={left} sent={sent} sending={sending} onSend={send} testId="forgot-send-code" />,
      })}
      {sent ? (
        <p className="mq-login-hint" role="status">
          {t('code.sent')}
        </p>
      ) : null}
      {field('password', {
        icon: LockOutlined,
        type: 'password',
        autoComplete: 'new-password',
        testId: 'forgot-password',
      })}
      {field('confirmPassword', {
        icon: LockOutlined,
        type: 'password',
        autoComplete: 'new-password',
        testId: 'forgot-confirm',
      })}
      <p className="mq-login-hint">{t('forgot.rule')}</p>
      <SubmitButton submitting={submitting} testId="forgot-submit">
        {t('forgot.submit')}
      </SubmitButton>
      <div className="mq-login-links">
        <button type="button" className="mq-link-button" onClick={onBack} data-testid="forgot-back">
          {t('forgot.back')}
        </button>
      </div>
    </form>
  );
}
