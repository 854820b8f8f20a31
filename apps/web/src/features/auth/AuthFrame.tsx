import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { LanguageSwitch } from './LanguageSwitch';

/**
 * The frame of the pages before the shell (login, scan login, register, forced password change):
 * the brand aside, the language switch, and one card with its heading, body and footer.
 * Plain markup only: the login route loads it without antd.
 */
export function AuthFrame({
  testId,
  className,
  cardClassName,
  brand,
  subtitle,
  title,
  titleId,
  footer,
  children,
}: {
  testId: string;
  /** Added to the page's `mq-login`. */
  className?: string;
  /** Added to the card's `mq-login-card`. */
  cardClassName?: string;
  brand: ReactNode;
  subtitle: ReactNode;
  title: ReactNode;
  /** Given, the heading has this id and names the card. */
  titleId?: string;
  footer: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={className ? `mq-login ${className}` : 'mq-login'} data-testid={testId}>
      <aside className="mq-login-brand">
        <div className="mq-login-logo" aria-hidden>
          M
        </div>
        <h1>{brand}</h1>
        <p>{subtitle}</p>
      </aside>
      <main className="mq-login-panel">
        <div className="mq-login-top">
          <LanguageSwitch />
        </div>
        <section
          className={cardClassName ? `mq-login-card ${cardClassName}` : 'mq-login-card'}
          aria-labelledby={titleId}
        >
          <h2 id={titleId}>{title}</h2>
          {children}
          <div className="mq-login-footer">{footer}</div>
        </section>
      </main>
    </div>
  );
}

/** A footer's question and its link ("No account yet? Register"). */
export function PromptLink({
  prompt,
  to,
  testId,
  children,
}: {
  prompt: ReactNode;
  to: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <>
      <span>{prompt}</span>{' '}
      <Link to={to} data-testid={testId}>
        {children}
      </Link>
    </>
  );
}
