"""An LSTM for ``passcheck check-export`` (torch): x [batch, 5, 8] → output [batch, 5, 16], h and c [1, batch, 16]."""

import torch

torch.manual_seed(0)
model = torch.nn.LSTM(input_size=8, hidden_size=16, batch_first=True)
example_inputs = (torch.randn(3, 5, 8),)
