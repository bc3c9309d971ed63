import { ConfigProvider } from 'antd';
import useButtonStyle from 'antd/es/button/style';
import { type CSSProperties, type MouseEventHandler, type ReactNode, useContext, useMemo } from 'react';

/**
 * A table row's link action (修改 / 删除 / 详情 / a row action): the same `<button>` antd's
 * `<Button type="link" size="small">` renders — its classes, its icon span and its text span — without the Button
 * component around it. A 20-row list has 60–80 of these; each antd Button runs a style hook, a layout effect and three
 * effects (loading, mount, the two-Chinese-characters check that never applies to a link button), and React runs all of
 * them again every time a kept tab is shown. The link variant has no wave, no two-character spacing and, in a row, is
 * never loading or disabled, so nothing of what users see or can do depends on them.
 */

/** The class names of a small link button (and its danger form), with antd's button styles registered: call once per table. */
export function useLinkActionClass(): LinkActionClass {
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const prefix = getPrefixCls('btn');
  const [, hashId, cssVarCls] = useButtonStyle(prefix);
  return useMemo(() => {
    const head = [prefix, hashId, cssVarCls].filter(Boolean).join(' ');
    // Same order as antd's Button: type, dangerous, color, variant, size.
    return {
      normal: `${head} ${prefix}-link ${prefix}-color-link ${prefix}-variant-link ${prefix}-sm`,
      danger: `${head} ${prefix}-link ${prefix}-dangerous ${prefix}-color-dangerous ${prefix}-variant-link ${prefix}-sm`,
      block: `${prefix}-block`,
      icon: `${prefix}-icon`,
    };
  }, [prefix, hashId, cssVarCls]);
}

export interface LinkActionClass {
  normal: string;
  danger: string;
  block: string;
  icon: string;
}

export interface LinkActionProps {
  classes: LinkActionClass;
  children: ReactNode;
  onClick: MouseEventHandler<HTMLButtonElement>;
  icon?: ReactNode;
  danger?: boolean;
  block?: boolean;
  title?: string;
  style?: CSSProperties;
}

export function LinkAction({ classes, children, onClick, icon, danger, block, title, style }: LinkActionProps) {
  const className = `${danger ? classes.danger : classes.normal}${block ? ` ${classes.block}` : ''}`;
  return (
    <button type="button" className={className} title={title} style={style} onClick={onClick}>
      {icon ? <span className={classes.icon}>{icon}</span> : null}
      {/* antd wraps a text child in a span (its icon gap and ellipsis rules select it) */}
      {typeof children === 'string' || typeof children === 'number' ? <span>{children}</span> : children}
    </button>
  );
}
