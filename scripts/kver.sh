# shellcheck shell=sh
# Sourced by the scripts (after setting $top): KVER picks the kernel tree,
# 6.1 (the default) or 6.12. Each tree has its own tarball, series and
# build directory, so switching between them rebuilds nothing:
#   /usr/src/linux-source-$KVER.tar.xz   Debian's source (linux-source-$KVER)
#   patches/$KVER/                       the series for that tree
#   build/$KVER/linux                    the git tree, series applied
#   build/$KVER/kbuild-$PROFILE          kbuild output of a profile
#   build/$KVER/bzImage-$PROFILE         the kernel a guest boots
#   build/$KVER/initramfs.cpio.gz        the initramfs (its selftest comes
#                                        from the tree)
#   build/$KVER/log                      console and build logs
KVER=${KVER:-6.1}
case $KVER in
6.1 | 6.12) ;;
*)
	echo "KVER=$KVER: the trees are 6.1 and 6.12" >&2
	exit 2
	;;
esac
export KVER
# The paths below are for the scripts that source this file.
# shellcheck disable=SC2034
{
kdir=${top:?kver.sh: set top first}/build/$KVER
tarball=/usr/src/linux-source-$KVER.tar.xz
tree=$kdir/linux
patches=$top/patches/$KVER
kernel_image() { echo "$kdir/bzImage-$1"; }
default_initramfs=$kdir/initramfs.cpio.gz
logdir=${LOGDIR:-$kdir/log}
}
