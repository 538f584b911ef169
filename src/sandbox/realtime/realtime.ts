// The sandbox's realtime side in one piece: the Pusher endpoint, the chat broadcasts, generated chatter, assistant
// replies and the ws-drop fault; started with the sandbox, stopped by its close().
import type { SandboxStore } from '../data/store.js';
import type { FaultInjector } from '../traffic/faults.js';
import { AssistantReplies } from './assistant-replies.js';
import type { ChannelAuthority } from './channel-auth.js';
import { broadcastChatEvents } from './chat-broadcasts.js';
import { Chatter } from './chatter.js';
import { PusherServer } from './pusher-server.js';

export interface RealtimeOptions {
  authority: ChannelAuthority;
  store: SandboxStore;
  faults: FaultInjector;
  seed: number;
  /** Generated patient messages per second; 0 = none. */
  chatter: number;
  now(): number;
}

/** ws-drop is drawn once a second. */
const WS_DROP_PERIOD_MS = 1000;

export class SandboxRealtime {
  readonly server: PusherServer;
  readonly chatter: Chatter;
  private readonly assistant: AssistantReplies;
  private readonly stopBroadcasts: () => void;
  private dropTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RealtimeOptions) {
    this.server = new PusherServer(options.authority, options.now);
    this.stopBroadcasts = broadcastChatEvents(options.store, ({ channel, event, payload }) =>
      this.server.publish(channel, event, payload),
    );
    this.assistant = new AssistantReplies(options.store, options.seed, options.now);
    this.chatter = new Chatter(options.store, options.seed, options.now);
    this.chatter.setRate(options.chatter);
    this.syncFaults();
  }

  /** Runs the once-a-second ws-drop draw while the fault spec asks for it; call after every spec change. */
  syncFaults(): void {
    const wanted = this.options.faults.realtimeDropChance > 0;
    if (wanted && this.dropTimer === undefined) {
      this.dropTimer = setInterval(() => {
        if (this.options.faults.drawRealtimeDrop()) this.server.dropAll();
      }, WS_DROP_PERIOD_MS);
      this.dropTimer.unref();
    } else if (!wanted) {
      clearInterval(this.dropTimer);
      this.dropTimer = undefined;
    }
  }

  close(): void {
    clearInterval(this.dropTimer);
    this.dropTimer = undefined;
    this.chatter.stop();
    this.assistant.close();
    this.stopBroadcasts();
    this.server.close();
  }
}
