import { useTranslation } from 'react-i18next';
import { useSession } from '../../session/session';

/**
 * Spec section 2 "Header": the provider's own users (isYXF) get a fixed welcome text, every
 * other user the greeting stored for them (falling back to a plain hello when it is empty).
 */
export function greetingText(
  session: { isYXF: boolean; welcomeSpeech: string; userName: string },
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  if (session.isYXF) return t('header.welcome');
  const speech = session.welcomeSpeech?.trim();
  return speech || t('header.hello', { name: session.userName });
}

export default function Greeting() {
  const { t } = useTranslation('shell');
  const isYXF = useSession((s) => s.isYXF);
  const welcomeSpeech = useSession((s) => s.welcomeSpeech);
  const userName = useSession((s) => s.userName);
  const text = greetingText({ isYXF, welcomeSpeech, userName }, t);
  return (
    <div className="mq-greeting" data-testid="header-greeting" title={text}>
      {text}
    </div>
  );
}
