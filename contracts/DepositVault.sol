// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title DepositVault
/// @notice Holds members' token deposits. A member deposits with a reference that ties the
/// deposit to their Questline account; the platform's operator pays withdrawals, each under a
/// withdrawal id that the vault pays at most once, so a retried withdrawal never pays twice.
/// Besides its own token (`token`: `deposit`, `withdraw`), the vault accepts every ERC-20 token on
/// an allow-list the operator keeps (`depositToken`, `withdrawToken`); one map of paid withdrawal
/// ids serves both, so an id is paid at most once whatever the token.
contract DepositVault is AccessControl, Pausable, ReentrancyGuard {
    using SafeERC20 for IERC20;

    /// @notice May call `withdraw` and `withdrawToken`, and keeps the allow-list of tokens.
    bytes32 public constant OPERATOR_ROLE = keccak256("OPERATOR_ROLE");
    /// @notice May pause and unpause deposits and withdrawals.
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");

    /// @notice The token held.
    IERC20 public immutable token;

    /// @notice Withdrawal ids already paid, in any token.
    mapping(bytes32 withdrawalId => bool paid) public withdrawalPaid;

    /// @notice Tokens `depositToken` and `withdrawToken` accept. The vault's own token is listed
    /// at construction and stays listed.
    mapping(IERC20 listed => bool allowed) public tokenAllowed;

    /// @notice A zero address among the arguments.
    error ZeroAddress();
    /// @notice A deposit or withdrawal of zero tokens.
    error ZeroAmount();
    /// @notice The permit was refused and no allowance covers the deposit.
    error PermitFailed();
    /// @notice This withdrawal id was paid before.
    error WithdrawalAlreadyPaid(bytes32 withdrawalId);
    /// @notice This token is not on the allow-list.
    error TokenNotAllowed(IERC20 token);
    /// @notice The vault's own token cannot leave the allow-list.
    error VaultTokenAlwaysAllowed();

    /// @notice `from` deposited `amount` for the member `ref`.
    event Deposited(address indexed from, bytes32 indexed ref, uint256 amount);
    /// @notice `operator` paid `amount` to `to` for `withdrawalId`.
    event Withdrawn(bytes32 indexed withdrawalId, address indexed to, uint256 amount, address indexed operator);
    /// @notice `token` was put on (`allowed`) or taken off the allow-list by `operator`.
    event TokenAllowListed(IERC20 indexed token, bool allowed, address indexed operator);
    /// @notice `from` deposited `amount` of `token` (what the vault received) for the member `ref`.
    event TokenDeposited(IERC20 indexed token, address indexed from, bytes32 indexed ref, uint256 amount);
    /// @notice `operator` paid `amount` of `token` to `to` for `withdrawalId`.
    event TokenWithdrawn(bytes32 indexed withdrawalId, IERC20 indexed token, address indexed to, uint256 amount, address operator);

    /// @param token_ The token held.
    /// @param admin Receives `DEFAULT_ADMIN_ROLE` and `PAUSER_ROLE`.
    /// @param operator Receives `OPERATOR_ROLE`.
    constructor(IERC20 token_, address admin, address operator) {
        if (address(token_) == address(0) || admin == address(0) || operator == address(0)) revert ZeroAddress();
        token = token_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(PAUSER_ROLE, admin);
        _grantRole(OPERATOR_ROLE, operator);
        tokenAllowed[token_] = true;
        emit TokenAllowListed(token_, true, msg.sender);
    }

    /// @notice Puts `listed` on the allow-list (`allowed`) or takes it off. Deposits of a token
    /// taken off stop, and so do its withdrawals until it is listed again.
    function setTokenAllowed(IERC20 listed, bool allowed) external onlyRole(OPERATOR_ROLE) {
        if (address(listed) == address(0)) revert ZeroAddress();
        if (address(listed) == address(token)) revert VaultTokenAlwaysAllowed();
        tokenAllowed[listed] = allowed;
        emit TokenAllowListed(listed, allowed, msg.sender);
    }

    /// @notice Deposits `amount` of a listed `deposited` token from the caller (who approved the
    /// vault) for the member `ref`. The event carries what the vault received, which a token that
    /// takes a fee on transfer makes less than `amount`.
    function depositToken(IERC20 deposited, uint256 amount, bytes32 ref) external whenNotPaused nonReentrant {
        if (!tokenAllowed[deposited]) revert TokenNotAllowed(deposited);
        if (amount == 0) revert ZeroAmount();
        uint256 before = deposited.balanceOf(address(this));
        deposited.safeTransferFrom(msg.sender, address(this), amount);
        emit TokenDeposited(deposited, msg.sender, ref, deposited.balanceOf(address(this)) - before);
    }

    /// @notice Deposits `amount` from the caller (who approved the vault) for the member `ref`.
    function deposit(uint256 amount, bytes32 ref) external {
        _deposit(amount, ref);
    }

    /// @notice Deposits with an EIP-2612 permit, so one signature is enough. If the permit was
    /// already used (someone submitted it first), the deposit goes on with the allowance it set.
    function depositWithPermit(uint256 amount, bytes32 ref, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external {
        (bool permitted,) = address(token).call(
            abi.encodeCall(IERC20Permit.permit, (msg.sender, address(this), amount, deadline, v, r, s))
        );
        if (!permitted && token.allowance(msg.sender, address(this)) < amount) revert PermitFailed();
        _deposit(amount, ref);
    }

    /// @notice Pays `amount` to `to` for `withdrawalId`, once: a paid id is refused.
    function withdraw(bytes32 withdrawalId, address to, uint256 amount)
        external
        onlyRole(OPERATOR_ROLE)
        whenNotPaused
        nonReentrant
    {
        if (withdrawalPaid[withdrawalId]) revert WithdrawalAlreadyPaid(withdrawalId);
        if (to == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        withdrawalPaid[withdrawalId] = true;
        emit Withdrawn(withdrawalId, to, amount, msg.sender);
        token.safeTransfer(to, amount);
    }

    /// @notice Pays `amount` of a listed `paid` token to `to` for `withdrawalId`, once: an id paid
    /// before, by `withdraw` or `withdrawToken`, is refused.
    function withdrawToken(IERC20 paid, bytes32 withdrawalId, address to, uint256 amount)
        external
        onlyRole(OPERATOR_ROLE)
        whenNotPaused
        nonReentrant
    {
        if (withdrawalPaid[withdrawalId]) revert WithdrawalAlreadyPaid(withdrawalId);
        if (!tokenAllowed[paid]) revert TokenNotAllowed(paid);
        if (to == address(0)) revert ZeroAddress();
        if (amount == 0) revert ZeroAmount();
        withdrawalPaid[withdrawalId] = true;
        emit TokenWithdrawn(withdrawalId, paid, to, amount, msg.sender);
        paid.safeTransfer(to, amount);
    }

    /// @notice Stops deposits and withdrawals.
    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    /// @notice Resumes deposits and withdrawals.
    function unpause() external onlyRole(PAUSER_ROLE) {
        _unpause();
    }

    function _deposit(uint256 amount, bytes32 ref) private whenNotPaused nonReentrant {
        if (amount == 0) revert ZeroAmount();
        emit Deposited(msg.sender, ref, amount);
        token.safeTransferFrom(msg.sender, address(this), amount);
    }
}
