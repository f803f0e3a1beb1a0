"""sb3-contrib's ``MultiInputLstmPolicy`` with its sequences run through the LSTM in one call where the library
steps them one time-step at a time: the same arithmetic, about twice as fast to train (baseline.py's ``recurrent``).

RecurrentPPO's rollout buffer cuts its minibatches into sequences at every episode start (create_sequencers), so an
episode can only start at a sequence's first step. The library's ``_process_sequence`` resets the LSTM's state
wherever an episode starts and, unless no sequence of the minibatch starts one, does so by calling the LSTM once a
time-step (128 calls a sequence at its default ``n_steps``, forward and backward): on a task whose games are short
nearly every minibatch holds a start (recurrent_bench.py, User-Tiny-v1: 88 training steps a CPU second with the
library's policy, 187 with this one). Here, when
every start lies on a sequence's first step, the states are reset there and the whole sequence goes through the LSTM
at once, as the library itself does when there is no start; any other layout (none is made by the library) takes the
library's loop. The outputs are the loop's; the gradients differ in the floating point sums' last bits (the
backward pass sums over a sequence's steps in another order), which tests/test_rl_bench.py checks against the
library's own.
"""

from __future__ import annotations

import torch
from sb3_contrib.common.recurrent.policies import RecurrentActorCriticPolicy
from sb3_contrib.ppo_recurrent.policies import MultiInputLstmPolicy
from torch import nn


class SequenceLstmPolicy(MultiInputLstmPolicy):
    """MultiInputLstmPolicy, its sequences through the LSTM in one call (the module's docstring)."""

    @staticmethod
    def _process_sequence(features: torch.Tensor, lstm_states: tuple[torch.Tensor, torch.Tensor],
                          episode_starts: torch.Tensor, lstm: nn.LSTM) -> tuple[torch.Tensor, torch.Tensor]:
        n_seq = lstm_states[0].shape[1]
        starts = episode_starts.reshape((n_seq, -1)).swapaxes(0, 1)  # (steps, n_seq), as the library reshapes them
        if torch.any(starts[1:] != 0.0):  # an episode starting inside a sequence: the library's loop
            return RecurrentActorCriticPolicy._process_sequence(features, lstm_states, episode_starts, lstm)
        keep = (1.0 - starts[0]).view(1, n_seq, 1)
        sequence = features.reshape((n_seq, -1, lstm.input_size)).swapaxes(0, 1)
        output, states = lstm(sequence, (keep * lstm_states[0], keep * lstm_states[1]))
        return torch.flatten(output.transpose(0, 1), start_dim=0, end_dim=1), states
