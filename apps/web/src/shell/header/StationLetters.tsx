import { CloseOutlined, MailOutlined, ShopOutlined } from '@ant-design/icons';
import { Perm } from '@marquee/protocol';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../session/session';
import { useCan } from '../../session/useCan';
import { useStationLetters } from './queries';

/** Spec section 9: the station-letter dialog is 600 px wide. */
export const LETTERS_DIALOG_WIDTH = 600;

/** Where the banner's dismissal is kept, per account: the letters it was dismissed for. */
export const lettersDismissedKey = (userId: string) => `mq_letters_dismissed:${userId}`;

function readDismissed(userId: string): string | null {
  try {
    return localStorage.getItem(lettersDismissedKey(userId));
  } catch {
    return null;
  }
}

function storeDismissed(userId: string, signature: string): void {
  try {
    localStorage.setItem(lettersDismissedKey(userId), signature);
  } catch {
    // Storage full or refused: the dismissal lasts this page load.
  }
}

/**
 * The red station-letter banner (spec section 2 "Header"): the messages joined by commas,
 * dismissible (issue 25: the dismissal is kept for the account across reloads, until the
 * letters change); a click opens the numbered list with a count and, with the
 * market permission, a link to the market.
 */
export default function StationLetters() {
  const { t } = useTranslation('shell');
  const { data } = useStationLetters();
  const can = useCan();
  const userId = useSession((s) => s.userId);
  const [dismissed, setDismissed] = useState<string | null>(() => readDismissed(userId));
  const [open, setOpen] = useState(false);

  const letters = (data ?? []).filter((l) => l.trim() !== '');
  const signature = letters.join('\u0000');
  if (letters.length === 0 || dismissed === signature) return null;
  const text = letters.join(t('letters.separator'));

  return (
    <>
      <div className="mq-letters" role="alert" data-testid="station-letter-banner">
        <button type="button" className="mq-letters-text" onClick={() => setOpen(true)} title={text}>
          <MailOutlined className="mq-letters-icon" />
          <span>{text}</span>
        </button>
        <button
          type="button"
          className="mq-letters-close"
          aria-label={t('letters.dismiss')}
          data-testid="station-letter-dismiss"
          onClick={() => {
            storeDismissed(userId, signature);
            setDismissed(signature);
          }}
        >
          <CloseOutlined />
        </button>
      </div>
      <Modal
        open={open}
        width={LETTERS_DIALOG_WIDTH}
        title={t('letters.title')}
        onCancel={() => setOpen(false)}
        destroyOnHidden
        footer={
          <div className="mq-letters-footer">
            {can(Perm.appMarket) ? (
              <Link to="/shop" onClick={() => setOpen(false)} data-testid="station-letter-market">
                <ShopOutlined /> {t('letters.market')}
              </Link>
            ) : (
              <span />
            )}
            <Button type="primary" onClick={() => setOpen(false)}>
              {t('dialog.close')}
            </Button>
          </div>
        }
      >
        <div data-testid="station-letter-dialog">
          <div className="mq-letters-count" data-testid="station-letter-count">
            {t('letters.total', { count: letters.length })}
          </div>
          <ol className="mq-letters-list">
            {letters.map((letter, i) => (
              // Letters are plain strings and may repeat: the position is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={i}>{letter}</li>
            ))}
          </ol>
        </div>
      </Modal>
    </>
  );
}
