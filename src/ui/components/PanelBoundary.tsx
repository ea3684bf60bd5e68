/**
 * An error boundary around one panel: a render error in a chart or a bad record shows a message
 * in that panel, and the rest of the page keeps working. "Try again" re-renders the panel (after
 * the data changed, it may well draw).
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** The panel's name, as the message says it. */
  name: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

export class PanelBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept for whoever opens the console; the panel itself says what happened.
    console.error(`The ${this.props.name} panel failed to draw:`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="panel-error" role="alert" data-testid="panel-error" data-panel={this.props.name}>
        <p>
          <strong>The {this.props.name} panel could not be drawn.</strong> The rest of the page still works.
        </p>
        <p className="muted">{error.message.slice(0, 300)}</p>
        <button type="button" className="small" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
