// completion: the declaration; its code loads only when it runs.
import { defineCommand } from '../../cli/command.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

export default defineCommand({
  name: 'completion',
  category: 'Tools',
  summary: 'print the shell completion script for bash, zsh or fish',
  description:
    "Print the completion script for a shell (the one shipped in the package's completions/ folder).\n" +
    'bash: source <(clinic completion bash) in ~/.bashrc; zsh: clinic completion zsh > ~/.zfunc/_clinic\n' +
    '(a folder in $fpath); fish: clinic completion fish > ~/.config/fish/completions/clinic.fish',
  dryRun: 'read-only',
  args: [{ name: 'shell', description: 'bash, zsh or fish', choices: SHELLS }],
  examples: [
    'clinic completion bash > ~/.local/share/bash-completion/completions/clinic',
    'clinic completion zsh > ~/.zfunc/_clinic         # with fpath=(~/.zfunc $fpath) in ~/.zshrc',
    'clinic completion fish > ~/.config/fish/completions/clinic.fish',
  ],
  noJq: 'completion prints a shell script, not JSON',
  noRaw: true,
  load: async () => (await import('./print.js')).run,
});
