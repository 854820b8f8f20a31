import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmOkProps } from '../../components/ConfirmAction';

/**
 * The parts of the library's side panels (the folder tree, the categories): an icon button
 * named by its tooltip, a delete icon that asks first, and a panel's add button.
 */

interface IconActionProps {
  icon: ReactNode;
  label: string;
  onClick?: () => void;
  testId: string;
  danger?: boolean;
}

/** A small icon button, its label the tooltip and the accessible name (other props, from a Popconfirm, go to the tooltip). */
export function IconAction({ icon, label, onClick, testId, danger, ...trigger }: IconActionProps) {
  return (
    <Tooltip title={label} {...trigger}>
      <Button
        type="text"
        size="small"
        danger={danger}
        icon={icon}
        aria-label={label}
        onClick={onClick}
        data-testid={testId}
      />
    </Tooltip>
  );
}

/** A delete icon that asks first (`onConfirm` deletes; a failure was already shown by the client). */
export function DeleteAction({
  title,
  description,
  onConfirm,
  testId,
}: {
  title: string;
  description?: string;
  onConfirm: () => Promise<unknown>;
  testId: string;
}) {
  const { t } = useTranslation('material');
  return (
    <Popconfirm
      title={title}
      description={description}
      okText={t('action.delete')}
      cancelText={t('action.cancel')}
      okButtonProps={confirmOkProps(true)}
      onConfirm={() => onConfirm().catch(() => undefined)}
    >
      <IconAction danger icon={<DeleteOutlined />} label={t('action.delete')} testId={testId} />
    </Popconfirm>
  );
}

/** A side panel's add button, above its list. */
export function SideAddButton({ label, onClick, testId }: { label: string; onClick: () => void; testId: string }) {
  return (
    <div className="mq-material-side-tools">
      <Button size="small" icon={<PlusOutlined />} onClick={onClick} data-testid={testId}>
        {label}
      </Button>
    </div>
  );
}
