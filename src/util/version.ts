/** The version users see (`--version`, `version`, the service's start-up line, `karpenter_build_info`): the package's own. */
import pkg from '../../package.json' with { type: 'json' };

export const VERSION: string = pkg.version;
