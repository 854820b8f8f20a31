import MobileOutlined from '@ant-design/icons-svg/es/asn/MobileOutlined';
import SafetyOutlined from '@ant-design/icons-svg/es/asn/SafetyOutlined';
import { codeTargetSchema, ErrorCode, verificationCodeSchema } from '@marquee/protocol';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import {
  failure,
  finishLogin,
  PlainAlert,
  PlainField,
  ruleError,
  SendCodeButton,
  SubmitButton,
  useCountdown,
} from './plainForm';

/**
 * Verification-code login (spec section 2 'Login': phone verification code): send a code
 * to a mobile number (or e-mail address) of an account, then log in with it. An unknown
 * number says 'not registered, register first' with the register link.
 */
export function PhoneCodeLogin() {
  const { t } = useTranslation(['login', 'validation', 'errors']);
  const id = useId();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [target, setTarget] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ target?: string; code?: string }>({});
  const [serverError, setServerError] = useState<{ code: number; message: string } | null>(null);
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [left, startCountdown] = useCountdown();

  const send = async () => {
    const targetError = ruleError(t, codeTargetSchema, target);
    setErrors((e) => ({ ...e, target: targetError }));
    if (targetError || sending || left > 0) return;
    setSending(true);
    setServerError(null);
    try {
      const res = await call('codeSend', { purpose: 'login', target: target.trim() }, { silent: true });
      setSent(true);
      startCountdown(res.resendIn);
    } catch (err) {
      setServerError(failure(err, t));
    } finally {
      setSending(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = { target: ruleError(t, codeTargetSchema, target), code: ruleError(t, verificationCodeSchema, code) };
    setErrors(next);
    if (next.target || next.code || submitting) return;
    setSubmitting(true);
    setServerError(null);
    try {
      const res = await call('codeLogin', { target: target.trim(), code: code.trim() }, { silent: true });
      finishLogin(res, t, navigate, params.get('redirect'));
    } catch (err) {
      setServerError(failure(err, t));
      setSubmitting(false);
    }
  };

  return (
    <form className="mq-login-form" onSubmit={submit} noValidate data-testid="login-phone-form">
      {serverError ? (
        <PlainAlert testId="login-phone-error">
          {serverError.message}
          {serverError.code === ErrorCode.NOT_REGISTERED ? (
            <>
              {' '}
              <Link to="/login/register" data-testid="login-phone-register">
                {t('register')}
              </Link>
            </>
          ) : null}
        </PlainAlert>
      ) : null}
      <PlainField
        id={`${id}-target`}
        label={t('field.phone')}
        placeholder={t('field.phone.placeholder')}
        icon={MobileOutlined}
        type="tel"
        autoComplete="tel"
        autoFocus
        value={target}
        error={errors.target}
        onChange={(v) => {
          setTarget(v);
          setServerError(null);
          if (errors.target) setErrors((e) => ({ ...e, target: undefined }));
        }}
        testId="login-phone"
      />
      <PlainField
        id={`${id}-code`}
        label={t('field.code')}
        placeholder={t('field.code.placeholder')}
        icon={SafetyOutlined}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={code}
        error={errors.code}
        onChange={(v) => {
          setCode(v.replace(/\D/g, ''));
          if (errors.code) setErrors((e) => ({ ...e, code: undefined }));
        }}
        testId="login-code"
        after={<SendCodeButton left={left} sent={sent} sending={sending} onSend={send} testId="login-send-code" />}
      />
      {sent ? (
        <p className="mq-login-hint" role="status" data-testid="login-code-sent">
          {t('code.sent')}
        </p>
      ) : null}
      <SubmitButton submitting={submitting} testId="login-code-submit">
        {t('submit')}
      </SubmitButton>
    </form>
  );
}
