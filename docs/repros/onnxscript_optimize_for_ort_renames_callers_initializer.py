"""onnxscript 0.7.2 optimize_for_ort(ir.from_proto(m)) renames an initializer of the caller's own ModelProto `m`:
`half` (read by two Slice nodes) becomes `val_1` in `m.graph.initializer`, while `m`'s nodes still read `half`, so the
model the caller keeps no longer passes the checker. ir.from_proto wraps the TensorProtos without copying them and a
rename of the initializer's value during fuse_xformers (after the rotary-embedding fusion) is written through to the
caller's proto. The model is a partial rotary embedding whose cos cache goes through Unsqueeze/Transpose/Reshape/Slice/
Expand/Concat (the hunt's `neutral-shape-ops@cos` form of `fusion-rotary/partial`, 28 nodes; embedded as bytes).
Exit 1 while the bug is present."""

import base64
import sys

import onnx
import onnx_ir as ir
from onnxscript.rewriter.ort_fusions import optimize_for_ort

MODEL = (
    "CAg63A0KMgoMcG9zaXRpb25faWRzCgNvbmUSAnB1GgxuMF9VbnNxdWVlemUiCVVuc3F1ZWV6ZToACiQKAnB1EgJwZhoHbjFfQ2Fz"
    "dCIEQ2FzdCoJCgJ0bxgBoAECOgAKJwoIaW52X2ZyZXEKAnBmEgJmchoJbjJfTWF0TXVsIgZNYXRNdWw6AAo0CgJmchICZnQaDG4z"
    "X1RyYW5zcG9zZSIJVHJhbnNwb3NlKg8KBHBlcm1AAEACQAGgAQc6AAo4CgJmdAoCZnQSA2VtYhoJbjRfQ29uY2F0IgZDb25jYXQq"
    "FAoEYXhpcxj///////////8BoAECOgAKGAoDZW1iEgJjbxoGbjVfQ29zIgNDb3M6AAoYCgNlbWISAnNpGgZuNl9TaW4iA1NpbjoA"
    "Ci0KAmNvCgNvbmUSB2Nvc19wcmUaDG43X1Vuc3F1ZWV6ZSIJVW5zcXVlZXplOgAKSgoHY29zX3ByZRINY29zX3RyYW5zcG9zZRoS"
    "Y29zX3RyYW5zcG9zZV9ub2RlIglUcmFuc3Bvc2UqEQoEcGVybUAAQAFAAkADoAEHCj8SCWNvc19zaGFwZRoOY29zX3NoYXBlX25v"
    "ZGUiCENvbnN0YW50KhgKBXZhbHVlKgwIBBAHOgQAAAAAQgCgAQQKQgoNY29zX3RyYW5zcG9zZQoJY29zX3NoYXBlEgtjb3NfcmVz"
    "aGFwZRoQY29zX3Jlc2hhcGVfbm9kZSIHUmVzaGFwZQo+Egpjb3Nfc3RhcnRzGg9jb3Nfc3RhcnRzX25vZGUiCENvbnN0YW50KhUK"
    "BXZhbHVlKgkIARAHOgEAQgCgAQQKQhIIY29zX2VuZHMaDWNvc19lbmRzX25vZGUiCENvbnN0YW50Kh0KBXZhbHVlKhEIARAHOgn/"
    "/////////39CAKABBAo6Eghjb3NfYXhlcxoNY29zX2F4ZXNfbm9kZSIIQ29uc3RhbnQqFQoFdmFsdWUqCQgBEAc6AQBCAKABBApP"
    "Cgtjb3NfcmVzaGFwZQoKY29zX3N0YXJ0cwoIY29zX2VuZHMKCGNvc19heGVzEgljb3Nfc2xpY2UaDmNvc19zbGljZV9ub2RlIgVT"
    "bGljZQo9Eghjb3Nfb25lcxoNY29zX29uZXNfbm9kZSIIQ29uc3RhbnQqGAoFdmFsdWUqDAgEEAc6BAEBAQFCAKABBAo6Cgljb3Nf"
    "c2xpY2UKCGNvc19vbmVzEgpjb3NfZXhwYW5kGg9jb3NfZXhwYW5kX25vZGUiBkV4cGFuZAo3Cgpjb3NfZXhwYW5kEgNjb3MaD2Nv"
    "c19jb25jYXRfbm9kZSIGQ29uY2F0KgsKBGF4aXMYAKABAgopCgJzaQoDb25lEgNzaW4aDG44X1Vuc3F1ZWV6ZSIJVW5zcXVlZXpl"
    "OgAKMAoBeAoEemVybwoDcm90CgNheDMKBHN0ZXASAnhhGghuOV9TbGljZSIFU2xpY2U6AAowCgF4CgNyb3QKA2JpZwoDYXgzCgRz"
    "dGVwEgJ4YhoJbjEwX1NsaWNlIgVTbGljZToACjQKAnhhCgR6ZXJvCgRoYWxmCgNheDMKBHN0ZXASA3JhMRoJbjExX1NsaWNlIgVT"
    "bGljZToACjMKAnhhCgRoYWxmCgNiaWcKA2F4MwoEc3RlcBIDcmEyGgluMTJfU2xpY2UiBVNsaWNlOgAKGgoDcmEyEgNyYW4aB24x"
    "M19OZWciA05lZzoACjsKA3JhbgoDcmExEgNyYXIaCm4xNF9Db25jYXQiBkNvbmNhdCoUCgRheGlzGP///////////wGgAQI6AAoe"
    "CgJ4YQoDY29zEgNyYWMaB24xNV9NdWwiA011bDoACh8KA3JhcgoDc2luEgNyYXMaB24xNl9NdWwiA011bDoACh4KA3JhYwoDcmFz"
    "EgJyYRoHbjE3X0FkZCIDQWRkOgASAWcqEwgBEAdCA29uZUoIAQAAAAAAAAAqJAgBCAQIARABQghpbnZfZnJlcUoQAACAP83MzD0K"
    "1yM8bxKDOioUCAEQB0IEemVyb0oIAAAAAAAAAAAqEwgBEAdCA3JvdEoICAAAAAAAAAAqEwgBEAdCA2F4M0oIAwAAAAAAAAAqFAgB"
    "EAdCBHN0ZXBKCAEAAAAAAAAAKhMIARAHQgNiaWdKCP////////9/KhQIARAHQgRoYWxmSggEAAAAAAAAAFofCgxwb3NpdGlvbl9p"
    "ZHMSDwoNCAcSCQoDEgFOCgIIBFocCgF4EhcKFQgBEhEKAxIBTgoCCAIKAggECgIIEGIdCgJ4YhIXChUIARIRCgMSAU4KAggCCgII"
    "BAoCCAhiHQoCcmESFwoVCAESEQoDEgFOCgIIAgoCCAQKAggIQgQKABAS"
)
model = onnx.ModelProto.FromString(base64.b64decode(MODEL))
onnx.checker.check_model(model, full_check=True)  # the input is valid
before = [t.name for t in model.graph.initializer]
optimize_for_ort(ir.from_proto(model))
after = [t.name for t in model.graph.initializer]
print("caller's initializers before:", before)
print("caller's initializers after: ", after)
try:
    onnx.checker.check_model(model, full_check=True)
except onnx.checker.ValidationError as exc:
    print("BUG: the caller's model changed and is now invalid:", str(exc).strip().splitlines()[0][:200])
    sys.exit(1)
if before != after:
    print("BUG: the caller's model changed")
    sys.exit(1)
print("ok")
