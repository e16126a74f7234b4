# SPDX-License-Identifier: BSD-3-Clause
# Program images, the ELF reader (real and malformed files), L3 normalisation.
exec "${TC_BUILD:-build}/test/unit_image" reference/test/data
