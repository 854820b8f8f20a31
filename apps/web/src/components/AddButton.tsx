import { PlusOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useCan } from '../session/useCan';
import { useIsMonitor } from './MonitorGuard';

export interface AddButtonProps {
  label: ReactNode;
  onClick: () => void;
  testId: string;
  /** Shown only to users holding this permission code (as a row operation's `authCode`). */
  authCode?: string;
  /** Hidden from third-party monitor users (the add endpoint refuses them: catalogue `notForMonitor`). */
  notForMonitor?: boolean;
}

/**
 * The Add button of a list's toolbar (primary, with a plus), shown only to those who may add:
 *
 *   toolbar={<AddButton label={t('add')} notForMonitor onClick={() => open(null)} testId="splice-add" />}
 */
export function AddButton({ label, onClick, testId, authCode, notForMonitor }: AddButtonProps) {
  const can = useCan();
  const monitor = useIsMonitor();
  if ((authCode && !can(authCode)) || (notForMonitor && monitor)) return null;
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
}
