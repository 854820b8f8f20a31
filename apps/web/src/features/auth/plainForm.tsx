import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { type ErrorCodeValue, issueMessage, type LoginResponse, VERIFICATION_RULES } from '@marquee/protocol';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from '../../api/client';
import { SvgIcon } from '../../components/plain/SvgIcon';
import { validationMessage } from '../../components/zodRule';
import { safeRedirect } from '../../session/guards';
import { usePendingNotices } from '../../session/notices';
import { useSession } from '../../session/session';

/**
 * Plain (antd-free) form pieces of the login route: the login page must stay under its
 * JavaScript budget, so its forms use the same markup and classes as the account form.
 */
export interface PlainFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string;
  type?: 'text' | 'password' | 'tel' | 'email';
  placeholder?: string;
  icon?: IconDefinition;
  autoComplete?: string;
  inputMode?: 'numeric' | 'tel' | 'email' | 'text';
  maxLength?: number;
  testId: string;
  autoFocus?: boolean;
  /** Something after the input inside the field row (the send-code button). */
  after?: ReactNode;
}

export function PlainField(props: PlainFieldProps) {
  const errorId = `${props.id}-error`;
  return (
    <div className="mq-field">
      <label htmlFor={props.id}>{props.label}</label>
      <div className={props.after ? 'mq-field-row' : undefined}>
        <span className={props.error ? 'mq-input mq-input-error' : 'mq-input'}>
          {props.icon ? <SvgIcon icon={props.icon} className="mq-input-prefix" /> : null}
          <input
            id={props.id}
            type={props.type ?? 'text'}
            placeholder={props.placeholder}
            autoComplete={props.autoComplete}
            inputMode={props.inputMode}
            maxLength={props.maxLength}
            autoFocus={props.autoFocus}
            value={props.value}
            aria-invalid={Boolean(props.error)}
            aria-describedby={props.error ? errorId : undefined}
            onChange={(e) => props.onChange(e.target.value)}
            onBlur={props.onBlur}
            data-testid={props.testId}
          />
        </span>
        {props.after}
      </div>
      {props.error ? (
        <div id={errorId} className="mq-field-error" role="alert">
          {props.error}
        </div>
      ) : null}
    </div>
  );
}

/** The block submit button of a plain form, busy with a spinner while `submitting`. */
export function SubmitButton({
  submitting,
  testId,
  children,
}: {
  submitting: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      className="mq-button mq-button-primary mq-button-block"
      disabled={submitting}
      aria-busy={submitting}
      data-testid={testId}
    >
      {submitting ? <span className="mq-spinner" aria-hidden /> : null}
      {children}
    </button>
  );
}

export function PlainAlert({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <div className="mq-alert mq-alert-error" role="alert" data-testid={testId}>
      <SvgIcon icon={CloseCircleFilled} className="mq-alert-icon" />
      <span>{children}</span>
    </div>
  );
}

/** A code field's send button: 'resend in n s' while the countdown runs, then 'resend' once a code went out. */
export function SendCodeButton({
  left,
  sent,
  sending,
  onSend,
  testId,
}: {
  left: number;
  sent: boolean;
  sending: boolean;
  onSend: () => void;
  testId: string;
}) {
  const { t } = useTranslation('login');
  return (
    <button
      type="button"
      className="mq-button mq-code-button"
      onClick={onSend}
      disabled={sending || left > 0}
      data-testid={testId}
    >
      {left > 0 ? t('code.resendIn', { seconds: left }) : sent ? t('code.resend') : t('code.send')}
    </button>
  );
}

/** Seconds left before another code may be sent; `start(n)` begins a countdown. */
export function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, setLeft];
}

export const RESEND_SECONDS = VERIFICATION_RULES.resendSeconds;

/** The message of a protocol rule for a value, or undefined when it passes ('' is 'required'). */
export function ruleError(
  t: TFunction,
  schema: z.ZodType,
  value: string,
  requiredKey = 'required',
): string | undefined {
  if (!value.trim()) return t(requiredKey, { ns: 'validation' });
  const result = schema.safeParse(value.trim());
  return result.success ? undefined : validationMessage(t, issueMessage(result.error.issues[0]));
}

/** The failure's code and message for a form (network and unknown errors say 'operation failed'). */
export function failure(err: unknown, t: TFunction): { code: ErrorCodeValue | -1; message: string } {
  if (err instanceof ApiError) return { code: err.code as ErrorCodeValue, message: err.message };
  return { code: -1, message: t('operationFailed', { ns: 'errors' }) };
}

/**
 * After any successful way in: keeps the session, leaves the notices for the antd root
 * (login toast, weak-password warning) and goes on; an account that must change its
 * password goes to the change-password page, which the guard keeps it on.
 */
export function finishLogin(
  res: LoginResponse,
  t: TFunction,
  navigate: (to: string, options?: { replace?: boolean }) => void,
  redirect: string | null,
  remember?: { password: string; remember: boolean },
): void {
  useSession.getState().setLogin(res, remember);
  const notices = usePendingNotices.getState();
  notices.push({ kind: 'success', content: t('success', { ns: 'login' }) });
  if (res.weakPassword) {
    notices.push({
      kind: 'warning',
      title: t('weakPassword.title', { ns: 'login' }),
      content: t('weakPassword.content', { ns: 'login' }),
    });
  }
  if (res.updatePwd) {
    // The change page itself says why the user is there.
    navigate('/changePassword', { replace: true });
    return;
  }
  navigate(safeRedirect(redirect), { replace: true });
}
